import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import type { Notice } from '../../lib/notify/notifier.js';
import { runProbe } from '../../lib/sla/probe.js';
import type { LakeStatus, PartitionCell } from '../../lib/status/lake-status.js';
import { readLakeStatus } from '../../lib/status/read-lake-status.js';
import { writerVariant, type LogicalTable } from '../writers/index.js';

// A lake made by the gate itself: drops written by DuckDB, judged by the local gate on a pinned
// clock, and the SLA probe run once; then read back as the status page would read it.

const NOW = Date.parse('2026-12-01T05:10:00Z'); // orders dt=2026-11-30 was due at 05:00
const OWNER = 'owner: { team: orders-team, notify: [orders@example.com] }';
const LONG_NAME = 'inventory_snapshots_by_fulfilment_centre';
const LONG_PARTITION = 'source_system=warehouse_management_eu_central_1/dt=2026-11-30';
const CONTRACTS: Record<string, string> = {
  'orders.yaml': `name: orders
version: 1.0.0
${OWNER}
produces: { format: parquet, partition: "dt={ds}" }
on_violation: { row_tolerance: 0.05 }
schema:
  grain: [order_id]
  columns:
    - { name: order_id, type: int64, required: true }
    - { name: status, type: string, required: true, enum: [placed, shipped] }
    - { name: channel, type: string, severity: warn, enum: [web, app] }
sla:
  arrival_by: "05:00"
  timezone: UTC
  min_rows: 10
  max_rows: 100000
`,
  'clicks.yaml': `name: clicks
version: 2.1.0
owner: { team: web-team, notify: [web@example.com] }
produces: { format: parquet, partition: "dt={ds}/hr={hh}" }
schema:
  columns:
    - { name: order_id, type: int64, required: true }
    - { name: status, type: string }
    - { name: channel, type: string }
`,
  'inventory.yaml': `name: ${LONG_NAME}
version: 1.0.0
${OWNER}
produces: { format: parquet, partition: "source_system=warehouse_management_eu_central_1/dt={ds}" }
schema:
  columns:
    - { name: order_id, type: int64, required: true }
    - { name: status, type: string }
    - { name: channel, type: string }
`,
  'returns.yaml': `name: returns
version: 1.3.0
status: deprecated
sunset: 2026-12-05
${OWNER}
produces: { format: parquet, partition: "dt={ds}" }
schema:
  columns:
    - { name: order_id, type: int64, required: true }
`,
};

let gate: LocalGate;
let dir: string;
let clock = NOW;
let contracts: Contract[];
let status: LakeStatus;
const probed: Notice[] = [];
const duckdb = writerVariant('duckdb-small-groups');

function orders(rows: number, badStatus = 0, badChannel = 0): LogicalTable {
  const ids = Array.from({ length: rows }, (_, i) => i + 1);
  return {
    rows,
    columns: [
      { name: 'order_id', type: 'int64', nullable: false, values: ids },
      { name: 'status', type: 'string', nullable: true, values: ids.map((id) => (id <= badStatus ? 'lost' : 'placed')) },
      { name: 'channel', type: 'string', nullable: true, values: ids.map((id) => (id <= badChannel ? 'fax' : 'web')) },
    ],
  };
}

async function parquet(name: string, table: LogicalTable): Promise<Uint8Array> {
  const path = join(dir, `${name.replaceAll('/', '_')}.parquet`);
  await duckdb.write(table, path);
  return new Uint8Array(readFileSync(path));
}

async function drop(dataset: string, major: number, partition: string, table: LogicalTable): Promise<void> {
  const bytes = await parquet(`${dataset}-${partition}-${clock}`, table);
  await dropPartition(gate.store, DEFAULT_LAYOUT, `staging/${dataset}/v${major}/${partition}/`, [{ relative: 'part-0000.parquet', size: bytes.length, read: async () => bytes }]);
  await gate.settled();
}

async function keys(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of gate.store.list(prefix)) found.push(object.key);
  return found;
}

function notifications(): { subject: string; attributes: Record<string, string> }[] {
  return readFileSync(join(dir, 'lake', 'notifications.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}

const cell = (dataset: string, partition: string): PartitionCell | undefined =>
  status.datasets.find((d) => d.dataset === dataset)?.cells.find((c) => c.partition === partition);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-status-'));
  const contractsDir = join(dir, 'contracts');
  mkdirSync(contractsDir);
  mkdirSync(join(dir, 'lake'));
  for (const [name, text] of Object.entries(CONTRACTS)) writeFileSync(join(contractsDir, name), text);
  contracts = Object.entries(CONTRACTS).map(([name, text]) => parseContract(text, name).contract!);
  gate = await startLocalGate({ dir: join(dir, 'lake'), contractsDir, bucket: 'lake', port: 0, clock: () => clock, print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });

  await drop('orders', 1, 'dt=2026-11-24', orders(40));
  await drop('orders', 1, 'dt=2026-11-25', orders(40, 0, 2));
  await drop('orders', 1, 'dt=2026-11-26', orders(40, 1));
  await drop('orders', 1, 'dt=2026-11-27', orders(40, 10));
  clock += 60_000; // attempt ids begin with the decision time: the second attempt is the later one
  await drop('orders', 1, 'dt=2026-11-27', orders(50, 20));
  const staged = await parquet('staged', orders(40));
  await gate.store.put('staging/orders/v1/dt=2026-11-28/part-0000.parquet', staged); // the producer died before _READY
  await drop('clicks', 2, 'dt=2026-11-30/hr=06', orders(12));
  await drop('clicks', 2, 'dt=2026-11-30/hr=07', { ...orders(12), columns: orders(12).columns.slice(1) });
  await gate.store.put('staging/clicks/v2/dt=2026-11-30/hr=08/part-0000.parquet', staged);
  await gate.store.put('staging/clicks/v2/dt=2026-11-30/hr=08/more/part-0001.parquet', staged);
  await drop(LONG_NAME, 1, LONG_PARTITION, orders(15));
  await gate.store.put('published/orders/v1/dt=2026-11-23/_SUCCESS', '{"format": "contract-gate/succ');
  const probeDeps = { store: gate.store, notifier: { notify: async (n: Notice) => void probed.push(n) }, contracts: contractRegistry(contracts), layout: DEFAULT_LAYOUT, abandonedAfterHours: 1e6 };
  // The gate has run for a week: the probe first saw the contracts then, so it expects what fell due since.
  await runProbe({ ...probeDeps, now: clock - 7 * 86_400_000 });
  await runProbe({ ...probeDeps, now: clock });

  status = await readLakeStatus(gate.store, { now: clock, contracts });
}, 120_000);
afterAll(async () => {
  await gate?.stop();
});

describe('the status of a lake the gate made', () => {
  it('lists every dataset major with a contract or data, with its contract', () => {
    expect(status.datasets.map((d) => [d.dataset, d.major, d.contract])).toEqual([
      ['clicks', 2, { version: '2.1.0', owner: 'web-team' }],
      [LONG_NAME, 1, { version: '1.0.0', owner: 'orders-team' }],
      ['orders', 1, { version: '1.0.0', owner: 'orders-team', minRows: 10, maxRows: 100000 }],
      ['returns', 1, { version: '1.3.0', owner: 'orders-team' }],
    ]);
    expect(status.location).toBe('s3://lake');
    expect(status.datasets.find((d) => d.dataset === 'returns')!.cells).toEqual([]);
  });

  it('shows a clean publish, a warn rule and withheld rows with their rows and _SUCCESS', async () => {
    expect(cell('orders', 'dt=2026-11-24')).toEqual({
      partition: 'dt=2026-11-24', state: 'published', rows: 40, at: '2026-12-01T05:10:00Z', detail: 'published 40 rows',
      link: { kind: 'object', key: 'published/orders/v1/dt=2026-11-24/_SUCCESS' },
    });
    expect(cell('orders', 'dt=2026-11-25')).toMatchObject({ state: 'published_with_warnings', rows: 40, detail: 'published with 1 warning: enum channel (2)' });
    expect(cell('orders', 'dt=2026-11-26')).toMatchObject({ state: 'published_with_warnings', rows: 39, detail: '39 rows published, 1 withheld' });
    // The withheld row's folder in quarantine/ is part of the publish, not a failed attempt.
    expect((await keys('quarantine/orders/v1/dt=2026-11-26/')).some((k) => k.endsWith('/rejected-rows.parquet'))).toBe(true);
    expect(cell('orders', 'dt=2026-11-26')?.attempts).toBeUndefined();
    for (const partition of ['dt=2026-11-24', 'dt=2026-11-25', 'dt=2026-11-26']) expect(await gate.store.head(cell('orders', partition)!.link.key)).toBeDefined();
  });

  it('shows the later of two quarantined attempts, counted, linked to its report page', async () => {
    const quarantined = cell('orders', 'dt=2026-11-27')!;
    expect(quarantined).toMatchObject({ state: 'quarantined', rows: 50, attempts: 2, at: '2026-12-01T05:11:00Z', link: { kind: 'object' } });
    expect(quarantined.detail).toMatch(/^failed: 1 violation: enum status \(20\); 20 invalid rows, more than the 2 the tolerance 5% allows$/);
    const reports = (await keys('quarantine/orders/v1/dt=2026-11-27/')).filter((k) => k.endsWith('/_REPORT.json'));
    expect(reports).toHaveLength(2);
    expect(quarantined.link.key).toBe(reports.sort().at(-1)!.replace(/_REPORT\.json$/, '_REPORT.html'));
    expect(await gate.store.head(quarantined.link.key)).toBeDefined();
  });

  it('shows files without _READY as in staging, linked to the listing that holds them', async () => {
    const staged = cell('orders', 'dt=2026-11-28')!;
    expect(staged).toMatchObject({ state: 'in_staging', link: { kind: 'listing', key: 'staging/orders/v1/dt=2026-11-28/' } });
    expect(staged.detail).toBe("1 file sits in staging/orders/v1/dt=2026-11-28/ without a _READY marker: the producer's upload never completed");
    expect(await keys(staged.link.key)).toEqual(['staging/orders/v1/dt=2026-11-28/part-0000.parquet']);
  });

  it('shows the partition the probe paged as missed and late, one it never paged as missed, and tomorrow\'s as waiting', async () => {
    expect(probed.map((n) => n.attributes.outcome).sort()).toEqual(['sla_missed', 'sunset_reminder']);
    expect(cell('orders', 'dt=2026-11-30')).toEqual({
      partition: 'dt=2026-11-30', state: 'missed_sla', late: true, at: '2026-12-01T05:00:00Z',
      detail: 'due by 2026-12-01T05:00:00Z; never arrived: nothing was dropped under staging/orders/v1/dt=2026-11-30/',
      link: { kind: 'listing', key: 'staging/orders/v1/dt=2026-11-30/' },
    });
    expect(cell('orders', 'dt=2026-11-29')).toMatchObject({ state: 'missed_sla', at: '2026-11-30T05:00:00Z' });
    expect(cell('orders', 'dt=2026-11-29')?.late).toBeUndefined();
    expect(cell('orders', 'dt=2026-12-01')).toMatchObject({ state: 'waiting', at: '2026-12-02T05:00:00Z', link: { kind: 'listing', key: 'staging/orders/v1/dt=2026-12-01/' } });
    expect(await keys('staging/orders/v1/dt=2026-12-01/')).toEqual([]);
    const partitions = status.datasets.find((d) => d.dataset === 'orders')!.cells.map((c) => c.partition);
    // The calendar starts at the dataset's first partition: a contract owes nothing from before it.
    expect(partitions).toEqual(['dt=2026-11-23', 'dt=2026-11-24', 'dt=2026-11-25', 'dt=2026-11-26', 'dt=2026-11-27', 'dt=2026-11-28', 'dt=2026-11-29', 'dt=2026-11-30', 'dt=2026-12-01']);
  });

  it('reads two-level and long partition paths whole, ordered by their time', async () => {
    const clicks = status.datasets.find((d) => d.dataset === 'clicks')!.cells;
    expect(clicks.map((c) => [c.partition, c.state, c.rows])).toEqual([
      ['dt=2026-11-30/hr=06', 'published', 12],
      ['dt=2026-11-30/hr=07', 'quarantined', 12],
      ['dt=2026-11-30/hr=08', 'in_staging', undefined],
    ]);
    expect(clicks[0]!.link.key).toBe('published/clicks/v2/dt=2026-11-30/hr=06/_SUCCESS');
    expect(clicks[1]).toMatchObject({ attempts: 1, link: { key: expect.stringMatching(/^quarantine\/clicks\/v2\/dt=2026-11-30\/hr=07\/\d{8}T\d{6}Z-[0-9a-f]{8}\/_REPORT\.html$/) } });
    expect(clicks[2]!.detail).toMatch(/^2 files sit in staging\/clicks\/v2\/dt=2026-11-30\/hr=08\/ without a _READY marker/);
    expect(await keys(clicks[2]!.link.key)).toHaveLength(2);
    const long = status.datasets.find((d) => d.dataset === LONG_NAME)!.cells;
    expect(long).toEqual([expect.objectContaining({ partition: LONG_PARTITION, state: 'published', rows: 15, link: { kind: 'object', key: `published/${LONG_NAME}/v1/${LONG_PARTITION}/_SUCCESS` } })]);
    expect(await gate.store.head(long[0]!.link.key)).toBeDefined();
  });

  it('lists the claims newest first: the probe\'s page and reminder after every verdict', () => {
    const sent = notifications();
    expect(status.notices.map((n) => n.kind)).toEqual(['sunset_reminder', 'sla_missed', ...Array(8).fill('verdict')]);
    expect(status.notices.slice(0, 2).map((n) => [n.dataset, n.version, n.partition, n.subject])).toEqual([
      ['returns', 'v1', undefined, probed.find((n) => n.attributes.outcome === 'sunset_reminder')!.subject],
      ['orders', 'v1', 'dt=2026-11-30', probed.find((n) => n.attributes.outcome === 'sla_missed')!.subject],
    ]);
    const verdicts = status.notices.filter((n) => n.kind === 'verdict');
    expect(verdicts.map((n) => `${n.dataset} ${n.partition} ${n.subject}`).sort()).toEqual(sent.map((n) => `${n.attributes.contract} ${n.attributes.partition} ${n.subject}`).sort());
    expect(verdicts.map((n) => n.subject)).toContain('[contract-gate] orders v1 dt=2026-11-26 PUBLISHED with warnings: 39 rows, 1 withheld');
    expect(status.notices.every((n) => n.state === 'sent')).toBe(true);
    const times = status.notices.map((n) => Date.parse(n.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('reports the corrupt _SUCCESS by key and nothing else', () => {
    expect(status.problems).toEqual(['s3://lake/published/orders/v1/dt=2026-11-23/_SUCCESS is not JSON']);
    expect(cell('orders', 'dt=2026-11-23')).toMatchObject({ state: 'published_with_warnings', link: { kind: 'object', key: 'published/orders/v1/dt=2026-11-23/_SUCCESS' } });
  });
});
