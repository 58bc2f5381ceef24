import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { makeOrders, ordersToParquet } from '../fixtures/orders-fixture.js';

export const LOAD_NOW = Date.parse('2026-11-30T05:00:00Z');

/** A contracts directory for load runs: the orders contract without its volume floor. */
export function loadContracts(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cg-load-contracts-'));
  writeFileSync(join(dir, 'orders.v1.yaml'), readFileSync('contracts/orders.v1.yaml', 'utf8').replace('min_rows: 1000', 'min_rows: 1'));
  return dir;
}

export async function startLoadGate(): Promise<{ gate: LocalGate; verdictAt: Map<string, number> }> {
  const verdictAt = new Map<string, number>();
  const gate = await startLocalGate({
    dir: mkdtempSync(join(tmpdir(), 'cg-load-')), contractsDir: loadContracts(), bucket: 'lake', port: 0, probeEveryMs: 0,
    clock: () => LOAD_NOW,
    print: (line) => {
      const match = /^gate: orders v1 (\S+): (PUBLISHED|QUARANTINED)/.exec(line);
      if (match) verdictAt.set(match[1]!, performance.now());
    },
  });
  return { gate, verdictAt };
}

/** Small Parquet files of the orders dataset; a bad partition has one out-of-enum status. */
export function partitionFiles(files: number, rowsPerFile: number, bad: boolean, firstRow: number): { relative: string; size: number; read: () => Promise<Uint8Array> }[] {
  return Array.from({ length: files }, (_, i) => {
    const plant = bad && i === 0 ? [{ row: 0, column: 'status' as const, value: 'lost' }] : [];
    const bytes = ordersToParquet(makeOrders({ rows: rowsPerFile, firstRow: firstRow + i * rowsPerFile, plant }));
    return { relative: `part-${String(i).padStart(5, '0')}.parquet`, size: bytes.length, read: async () => bytes };
  });
}

export async function dropAll(gate: LocalGate, drops: { partition: string; files: ReturnType<typeof partitionFiles> }[]): Promise<Map<string, number>> {
  const droppedAt = new Map<string, number>();
  await Promise.all(drops.map(async ({ partition, files }) => {
    await dropPartition(gate.store, DEFAULT_LAYOUT, `staging/orders/v1/${partition}/`, files);
    droppedAt.set(partition, performance.now());
  }));
  return droppedAt;
}

export function partitionName(index: number): string {
  // From the data's day on: an earlier partition is judged as of its own due time, before those orders.
  const day = new Date(Date.UTC(2026, 10, 29) + index * 86_400_000);
  return `dt=${day.toISOString().slice(0, 10)}`;
}

