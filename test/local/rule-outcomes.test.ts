import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { readWhole } from '../../lib/storage/object-store.js';
import { openDuckDB, queryRows, sqlString, writerVariant, type LogicalTable } from '../writers/index.js';

// Issue 17's acceptance, through the local gate: row tolerance with dead-letter rows, a warn
// rule, volume against history and a reference to another dataset. Data is written by DuckDB.

const NOW = Date.parse('2026-11-30T05:00:00Z');
const OWNER = 'owner: { team: data-team, notify: [data@example.com] }';
const CONTRACTS: Record<string, string> = {
  'events.v1.yaml': `name: events
version: 1.0.0
${OWNER}
produces: { format: parquet, partition: "dt={ds}" }
on_violation: { row_tolerance: 0.02 }
schema:
  grain: [event_id]
  columns:
    - { name: event_id, type: int64, required: true }
    - { name: status, type: string, required: true, enum: [placed, shipped] }
    - { name: amount, type: float64, min: 0 }
    - { name: channel, type: string, severity: warn, enum: [web, app] }
`,
  'volumes.v1.yaml': `name: volumes
version: 1.0.0
${OWNER}
produces: { format: parquet, partition: "dt={ds}" }
schema:
  columns:
    - { name: id, type: int64, required: true }
sla:
  volume_vs_history: { lookback: 7, min_ratio: 0.9, max_ratio: 3 }
`,
  'customers.v1.yaml': `name: customers
version: 1.0.0
${OWNER}
produces: { format: parquet, partition: "dt={ds}" }
schema:
  grain: [customer_id]
  columns:
    - { name: customer_id, type: string, required: true }
sla:
  max_rows: 1000000
`,
  'orders.v1.yaml': `name: orders
version: 1.0.0
${OWNER}
produces: { format: parquet, partition: "dt={ds}" }
schema:
  grain: [order_id]
  columns:
    - { name: order_id, type: int64, required: true }
    - { name: customer_id, type: string, required: true, references: { contract: customers, column: customer_id } }
`,
};

let gate: LocalGate;
let dir: string;
let duck: Awaited<ReturnType<typeof openDuckDB>>;
const duckdb = writerVariant('duckdb-small-groups');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-rules-'));
  const contracts = join(dir, 'contracts');
  mkdirSync(contracts);
  mkdirSync(join(dir, 'lake'));
  for (const [name, text] of Object.entries(CONTRACTS)) writeFileSync(join(contracts, name), text);
  gate = await startLocalGate({ dir: join(dir, 'lake'), contractsDir: contracts, bucket: 'lake', port: 0, clock: () => NOW, print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });
  duck = await openDuckDB();
}, 60_000);
afterAll(async () => {
  duck?.close();
  await gate?.stop();
});

function events(rows: number, badStatus: ReadonlySet<number>, badChannel: ReadonlySet<number> = new Set()): LogicalTable {
  const ids = Array.from({ length: rows }, (_, i) => i + 1);
  return {
    rows,
    columns: [
      { name: 'event_id', type: 'int64', nullable: false, values: ids },
      { name: 'status', type: 'string', nullable: false, values: ids.map((_, i) => (badStatus.has(i) ? 'lost' : i % 2 ? 'placed' : 'shipped')) },
      { name: 'amount', type: 'float64', nullable: true, values: ids.map((id) => (id % 7 === 0 ? null : id / 4)) },
      { name: 'channel', type: 'string', nullable: true, values: ids.map((_, i) => (badChannel.has(i) ? 'fax' : i % 3 ? 'web' : 'app')) },
    ],
  };
}

async function dropTable(dataset: string, partition: string, table: LogicalTable): Promise<void> {
  const path = join(dir, `${dataset}-${partition}.parquet`);
  await duckdb.write(table, path);
  const bytes = new Uint8Array(readFileSync(path));
  await dropPartition(gate.store, DEFAULT_LAYOUT, `staging/${dataset}/v1/${partition}/`, [{ relative: 'part-0000.parquet', size: bytes.length, read: async () => bytes }]);
  await gate.settled();
}

async function keys(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of gate.store.list(prefix)) found.push(object.key);
  return found;
}

async function json(key: string): Promise<any> {
  return JSON.parse(new TextDecoder().decode(await readWhole(gate.store, key)));
}

/** A lake object on the local disk, for DuckDB to read. */
async function onDisk(key: string): Promise<string> {
  const path = join(dir, key.replaceAll('/', '_'));
  writeFileSync(path, (await readWhole(gate.store, key))!);
  return path;
}

function notices(dataset: string, partition: string): any[] {
  return readFileSync(join(dir, 'lake', 'notifications.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    .filter((n) => n.attributes.contract === dataset && n.attributes.partition === partition);
}

const spread = (count: number, every: number) => new Set(Array.from({ length: count }, (_, k) => 3 + k * every));

describe('row tolerance: invalid rows within it are withheld and the rest published', () => {
  it('publishes exactly the 990 valid rows of a batch with 1% invalid rows, same schema, and dead-letters the 10 with reasons', async () => {
    const bad = spread(10, 97);
    await dropTable('events', 'dt=2026-11-20', events(1000, bad));
    const published = 'published/events/v1/dt=2026-11-20/';
    expect(await keys(published)).toEqual([`${published}_SUCCESS`, `${published}part-0000.parquet`]);
    const success = await json(`${published}_SUCCESS`);
    expect(success.rows).toBe(990);
    expect(success.withheld).toMatchObject({ rows: 10, tolerance: '2%' });
    expect(success.withheld.rejected_rows).toMatch(/quarantine\/events\/v1\/dt=2026-11-20\/\d{8}T\d{6}Z-[0-9a-f]{8}\/rejected-rows\.parquet$/);

    const source = join(dir, 'events-dt=2026-11-20.parquet');
    const out = await onDisk(`${published}part-0000.parquet`);
    const badIds = [...bad].map((i) => i + 1).join(', ');
    const expected = await queryRows(duck.connection, `SELECT * FROM read_parquet(${sqlString(source)}) WHERE event_id NOT IN (${badIds}) ORDER BY event_id`);
    expect(await queryRows(duck.connection, `SELECT * FROM read_parquet(${sqlString(out)}) ORDER BY event_id`)).toEqual(expected);
    const describe = (path: string) => queryRows(duck.connection, `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sqlString(path)}))`);
    expect(await describe(out)).toEqual(await describe(source));

    const attempt = success.withheld.rejected_rows.replace(/^.*?(quarantine\/)/, '$1').replace(/rejected-rows\.parquet$/, '');
    expect((await keys(attempt)).map((k) => k.slice(attempt.length))).toEqual(['_READY', '_REPORT.html', '_REPORT.json', 'part-0000.parquet', 'rejected-rows.parquet']);
    const original = await onDisk(`${attempt}part-0000.parquet`);
    expect(readFileSync(original)).toEqual(readFileSync(source));
    const rejected = await queryRows(duck.connection, `SELECT _row, _rule, _column, _message, event_id, status FROM read_parquet(${sqlString(await onDisk(`${attempt}rejected-rows.parquet`))}) ORDER BY _row`);
    expect(rejected).toEqual([...bad].map((row) => ({ _row: row, _rule: 'enum', _column: 'status', _message: expect.stringContaining('not in [placed, shipped]'), event_id: row + 1, status: 'lost' })));
    const [notice] = notices('events', 'dt=2026-11-20');
    expect(notice.attributes).toMatchObject({ outcome: 'published', severity: 'warning' });
    expect(notice.body).toMatch(/Withheld: +10 invalid rows \(within the tolerance 2%\)/);
  });

  it('quarantines the whole batch when 5% of its rows are invalid', async () => {
    await dropTable('events', 'dt=2026-11-21', events(1000, spread(50, 19)));
    expect(await keys('published/events/v1/dt=2026-11-21/')).toEqual([]);
    const [report] = (await keys('quarantine/events/v1/dt=2026-11-21/')).filter((k) => k.endsWith('_REPORT.json'));
    const body = await json(report!);
    expect(body.status).toBe('fail');
    expect(body.tolerance).toEqual({ invalid_rows: 50, allowed_rows: 20, tolerance: '2%', withheld: false });
    expect(notices('events', 'dt=2026-11-21').map((n) => n.attributes.outcome)).toEqual(['quarantined']);
  });
});

describe('severity: a failing warn rule does not block the publish', () => {
  it('publishes every row with a warning notification and the warning in _SUCCESS', async () => {
    await dropTable('events', 'dt=2026-11-22', events(500, new Set(), new Set([4, 40])));
    const success = await json('published/events/v1/dt=2026-11-22/_SUCCESS');
    expect(success.rows).toBe(500);
    expect(success.withheld).toBeUndefined();
    expect(success.checks).toMatchObject({ status: 'warn', violations: 0, warned: [{ rule: 'enum', column: 'channel', count: 2 }] });
    const [notice] = notices('events', 'dt=2026-11-22');
    expect(notice.subject).toMatch(/PUBLISHED with warnings/);
    expect(notice.attributes).toMatchObject({ outcome: 'published', severity: 'warning' });
  });
});

describe('volume_vs_history', () => {
  const ids = (rows: number): LogicalTable => ({ rows, columns: [{ name: 'id', type: 'int64', nullable: false, values: Array.from({ length: rows }, (_, i) => i) }] });

  it('publishes while history is short, saying the rule was skipped, then quarantines half the median of the last 7', async () => {
    const counts = [1000, 1040, 980, 1010, 990, 1020, 1000];
    for (const [i, rows] of counts.entries()) await dropTable('volumes', `dt=2026-11-0${i + 1}`, ids(rows));
    const first = await keys('published/volumes/v1/dt=2026-11-01/');
    expect(first).toContain('published/volumes/v1/dt=2026-11-01/_SUCCESS');
    await dropTable('volumes', 'dt=2026-11-08', ids(500));
    expect(await keys('published/volumes/v1/dt=2026-11-08/')).toEqual([]);
    const [report] = (await keys('quarantine/volumes/v1/dt=2026-11-08/')).filter((k) => k.endsWith('_REPORT.json'));
    const { violations } = await json(report!);
    expect(violations).toEqual([expect.objectContaining({ rule: 'volume_vs_history', severity: 'error', message: expect.stringContaining('median 1000 of the last 7 published partitions') })]);
  });
});

describe('references', () => {
  it('reports the customer ids of an orders partition that the latest customers partition lacks', async () => {
    const customers = Array.from({ length: 100 }, (_, i) => `c${i}`);
    await dropTable('customers', 'dt=2026-11-29', { rows: 100, columns: [{ name: 'customer_id', type: 'string', nullable: false, values: customers }] });
    const orderCustomers = ['c1', 'c999', 'c2', 'c998', 'c3', 'c999'];
    await dropTable('orders', 'dt=2026-11-29', {
      rows: orderCustomers.length,
      columns: [
        { name: 'order_id', type: 'int64', nullable: false, values: orderCustomers.map((_, i) => i + 1) },
        { name: 'customer_id', type: 'string', nullable: false, values: orderCustomers },
      ],
    });
    expect(await keys('published/orders/v1/dt=2026-11-29/')).toEqual([]);
    const [report] = (await keys('quarantine/orders/v1/dt=2026-11-29/')).filter((k) => k.endsWith('_REPORT.json'));
    const { violations } = await json(report!);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ rule: 'references', column: 'customer_id', count: 3 });
    expect(violations[0].samples.map((s: { row: number; value: string }) => [s.row, s.value])).toEqual([[1, 'c999'], [3, 'c998'], [5, 'c999']]);
    expect(violations[0].message).toContain('customers.customer_id');
  });
});
