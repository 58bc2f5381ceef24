import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { readWhole } from '../../lib/storage/object-store.js';
import { duckdbParquet } from '../fixtures/duckdb-parquet.js';

// Issue 31's acceptance, through the local gate: a reference order whose total turned post-tax is
// quarantined with a reference_value violation while every schema rule still passes.

const NOW = Date.parse('2026-11-30T05:00:00Z');
const CONTRACT = `name: orders
version: 1.0.0
owner: { team: orders, notify: [orders@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  grain: [order_id]
  columns:
    - { name: order_id, type: int64, required: true }
    - { name: status, type: string, required: true, enum: [placed, paid] }
    - { name: amount, type: "decimal(12,2)", required: true, min: 0 }
reference_rows:
  - key: { order_id: 1001 }
    expect: { amount: 100.00 }
    required: true
    description: the known test order, pre-tax
`;

let gate: LocalGate;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-reference-rows-'));
  mkdirSync(join(dir, 'contracts'));
  mkdirSync(join(dir, 'lake'));
  writeFileSync(join(dir, 'contracts', 'orders.v1.yaml'), CONTRACT);
  gate = await startLocalGate({ dir: join(dir, 'lake'), contractsDir: join(dir, 'contracts'), bucket: 'lake', port: 0, clock: () => NOW, print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });
}, 60_000);
afterAll(async () => {
  await gate?.stop();
});

/** 5,000 orders as a producer's DuckDB job writes them, every amount times `rate`. */
async function drop(partition: string, rate: string): Promise<void> {
  const bytes = await duckdbParquet(`SELECT i::BIGINT AS order_id, CASE WHEN i % 3 = 0 THEN 'paid' ELSE 'placed' END AS status,
    (CASE WHEN i = 1001 THEN 100.00 ELSE (i % 400) / 4 END * ${rate})::DECIMAL(12,2) AS amount FROM range(5000) r(i)`, 'ROW_GROUP_SIZE 1000');
  await dropPartition(gate.store, DEFAULT_LAYOUT, `staging/orders/v1/${partition}/`, [{ relative: 'part-0000.parquet', size: bytes.length, read: async () => bytes }]);
  await gate.settled();
}

async function keys(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of gate.store.list(prefix)) found.push(object.key);
  return found;
}

describe('reference rows through the local gate', () => {
  it('publishes the pre-tax partition and quarantines the post-tax one with reference_value, naming key, column, expected and found', async () => {
    await drop('dt=2026-11-28', '1');
    expect(await keys('published/orders/v1/dt=2026-11-28/')).toContain('published/orders/v1/dt=2026-11-28/_SUCCESS');
    await drop('dt=2026-11-29', '1.08');
    expect(await keys('published/orders/v1/dt=2026-11-29/')).toEqual([]);
    const [report] = (await keys('quarantine/orders/v1/dt=2026-11-29/')).filter((k) => k.endsWith('_REPORT.json'));
    const { violations } = JSON.parse(new TextDecoder().decode(await readWhole(gate.store, report!))) as { violations: unknown[] };
    expect(violations).toEqual([{
      rule: 'reference_value', severity: 'error', column: 'amount', count: 1,
      message: 'reference row order_id=1001: amount is "108.00", expected "100.00"',
      samples: [{ file: expect.stringMatching(/part-0000\.parquet$/), row: 1001, value: '108.00' }],
    }]);
    const notices = readFileSync(join(dir, 'lake', 'notifications.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { attributes: Record<string, string> })
      .filter((n) => n.attributes.partition === 'dt=2026-11-29');
    expect(notices.map((n) => n.attributes.outcome)).toEqual(['quarantined']);
    expect(JSON.stringify(notices[0])).toContain('reference row order_id=1001: amount is \\"108.00\\", expected \\"100.00\\"');
    const page = (await keys('quarantine/orders/v1/dt=2026-11-29/')).find((k) => k.endsWith('_REPORT.html'));
    expect(new TextDecoder().decode(await readWhole(gate.store, page!))).toContain('reference_value');
  });
});
