import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { readVersion, type ObjectStore } from '../../lib/storage/object-store.js';
import { writerVariant, type LogicalTable } from '../writers/index.js';

// A lake built through the local gate for the `status` command's tests: data written by DuckDB,
// dropped as a producer drops it, judged by the gate. The page is read back with regexes over
// the attributes status-page.ts writes (data-state, data-partition, href).

export const NOW_TEXT = '2026-11-30T12:00:00Z';
const NOW = Date.parse(NOW_TEXT);

export const CONTRACT = `name: shipments
version: 1.2.0
owner: { team: logistics, notify: [ops@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  grain: [shipment_id]
  columns:
    - { name: shipment_id, type: int64, required: true }
    - { name: carrier, type: string, required: true, enum: [ups, dhl, fedex] }
sla:
  arrival_by: "06:00"
  timezone: UTC
  min_rows: 50
  max_rows: 400
`;

/** What the lake holds by NOW: one of each state the calendar shows. */
export const EXPECTED: Readonly<Record<string, string>> = {
  'dt=2026-11-26': 'published',
  'dt=2026-11-27': 'quarantined',
  'dt=2026-11-28': 'missed_sla',
  'dt=2026-11-29': 'in_staging',
  'dt=2026-11-30': 'waiting',
};

const duckdb = writerVariant('duckdb-default');

export function shipments(rows: number, badAt?: number): LogicalTable {
  const ids = Array.from({ length: rows }, (_, i) => i);
  return {
    rows,
    columns: [
      { name: 'shipment_id', type: 'int64', nullable: false, values: ids.map((i) => i + 1) },
      { name: 'carrier', type: 'string', nullable: false, values: ids.map((i) => (i === badAt ? 'pigeon' : ['ups', 'dhl', 'fedex'][i % 3]!)) },
    ],
  };
}

/** Starts a gate in `<root>/serve` with the shipments contract registered. */
export async function startStatusGate(root: string): Promise<LocalGate> {
  mkdirSync(join(root, 'contracts'), { recursive: true });
  writeFileSync(join(root, 'contracts', 'shipments.v1.yaml'), CONTRACT);
  mkdirSync(join(root, 'serve'), { recursive: true });
  return startLocalGate({ dir: join(root, 'serve'), contractsDir: join(root, 'contracts'), bucket: 'lake', port: 0, clock: () => NOW, print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });
}

/** A DuckDB file dropped under staging: with `_READY` (the gate judges it) or without (it waits there). */
export async function stage(gate: LocalGate, root: string, partition: string, table: LogicalTable, marker: boolean): Promise<void> {
  const path = join(root, 'parquet', `${partition}.parquet`);
  await duckdb.write(table, path);
  const bytes = new Uint8Array(readFileSync(path));
  const prefix = `staging/shipments/v1/${partition}/`;
  if (marker) await dropPartition(gate.store, DEFAULT_LAYOUT, prefix, [{ relative: 'part-0000.parquet', size: bytes.length, read: async () => bytes }]);
  else await gate.store.put(`${prefix}part-0000.parquet`, bytes);
  await gate.settled();
}

/** The EXPECTED lake: 120 rows published, 90 quarantined (one unknown carrier), 60 staged without a marker. */
export async function buildStatusLake(root: string): Promise<LocalGate> {
  const gate = await startStatusGate(root);
  await stage(gate, root, 'dt=2026-11-26', shipments(120), true);
  await stage(gate, root, 'dt=2026-11-27', shipments(90, 4), true);
  await stage(gate, root, 'dt=2026-11-29', shipments(60), false);
  return gate;
}

/** A plain directory laid out like the bucket: every object's bytes at its key's path. */
export async function copyLake(store: ObjectStore, dir: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of store.list('')) keys.push(object.key);
  for (const key of keys) {
    const read = await readVersion(store, key);
    const path = join(dir, ...key.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, read!.bytes);
  }
  return keys;
}

export interface PageCell {
  readonly partition: string;
  readonly state: string;
  readonly href: string;
}

const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The section status-page.ts writes for one dataset version. */
export function sectionOf(page: string, dataset: string): string {
  const found = new RegExp(`<section [^>]*data-dataset="${dataset}"[\\s\\S]*?</section>`).exec(page);
  if (!found) throw new Error(`no section for ${dataset} in the page`);
  return found[0];
}

/** The calendar cells of one dataset, oldest first, with their links as written. */
export function cellsOf(page: string, dataset = 'shipments'): PageCell[] {
  const cells = [...sectionOf(page, dataset).matchAll(/<li data-state="([^"]*)" data-partition="([^"]*)"><a class="[^"]*" href="([^"]*)"/g)];
  return cells.map(([, state, partition, href]) => ({ state: state!, partition: unescape(partition!), href: unescape(href!) }));
}

/** The cells of EXPECTED's partitions, by partition. */
export function expectedCells(page: string): Record<string, PageCell> {
  const cells = cellsOf(page);
  return Object.fromEntries(Object.keys(EXPECTED).map((partition) => [partition, cells.find((c) => c.partition === partition)!]));
}

export function figcaptionOf(page: string, dataset: string): string {
  return unescape(/<figcaption[^>]*>([\s\S]*?)<\/figcaption>/.exec(sectionOf(page, dataset))?.[1] ?? '');
}
