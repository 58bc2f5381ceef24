import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { DEMO_NOW } from '../../lib/cli/demo-command.js';
import { localDropFiles } from '../../lib/cli/local-drop-files.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { runDemo } from '../../lib/cli/serve-demo.js';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { withDuckDB, sqlString } from '../writers/duckdb-session.js';
import { SILENT_ODCS } from './silent-odcs.js';

/**
 * The example lake `npm start` leaves (orders v1 dt=2026-11-29 and 11-30 published, 11-28
 * quarantined), plus the good example moved nine days back by DuckDB and published as
 * dt=2026-11-20, a week and more before the demo's morning, so the window has something to cut.
 */
const TODAY = '2026-11-30T06:00:00Z';
const ATTEMPT = /\d{8}T\d{6}Z-[0-9a-f]{8}/;
let gate: LocalGate;
let dir: string;
let before: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-replay-'));
  gate = await startLocalGate({ dir, contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => Date.parse(DEMO_NOW), print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });
  await runDemo(gate, 'contracts', () => {});
  const prefix = 'staging/orders/v1/dt=2026-11-20/';
  await dropPartition(gate.store, DEFAULT_LAYOUT, prefix, await localDropFiles(await nineDaysBack()));
  // The gate removes the marker last; no deadline here, a loaded machine may take its time.
  while (await gate.store.head(`${prefix}_READY`)) {
    await gate.settled();
    await sleep(25);
  }
  before = await bucketListing();
}, 600_000);
afterAll(() => gate?.stop());

/** The good example with every timestamp nine days earlier, as DuckDB writes it: the orders of 2026-11-20. */
async function nineDaysBack(): Promise<string> {
  const out = join(dir, 'moved', 'dt=2026-11-20');
  mkdirSync(out, { recursive: true });
  await withDuckDB((db) => db.run(`COPY (SELECT * REPLACE (ordered_at - INTERVAL 9 DAY AS ordered_at, updated_at - INTERVAL 9 DAY AS updated_at)
    FROM read_parquet('contracts/examples/orders/good/dt=2026-11-29/*.parquet')) TO ${sqlString(join(out, 'part-0000.parquet'))} (FORMAT parquet)`));
  return out;
}

async function bucketListing(): Promise<string[]> {
  const listed: string[] = [];
  for await (const object of gate.store.list('')) listed.push(`${object.key} ${object.etag} ${object.size}`);
  return listed;
}

async function replay(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  const code = await runCli(['replay', '--from', 's3://lake', '--endpoint', gate.endpoint, ...args], io);
  return { code, stdout, stderr, rows: tableRows(stdout) };
}

/** The table's partition rows as `partition then replayed why`, attempts aside. */
function tableRows(stdout: string): string[] {
  return stdout.split('\n').filter((line) => /^  dt=/.test(line)).map((line) => line.trim().replace(ATTEMPT, '<attempt>').replace(/ {2,}/g, '  '));
}

/** The shipped contract with one edit, as a producer would propose it. */
function proposed(name: string, edit: (yaml: string) => string): string {
  const file = join(dir, name);
  writeFileSync(file, edit(readFileSync('contracts/orders.v1.yaml', 'utf8')));
  return file;
}

const withoutPaid = () => proposed('orders.v1.no-paid.yaml', (yaml) => yaml.replace('enum: [placed, paid, cancelled]', 'enum: [placed, cancelled]').replace('version: 1.2.0', 'version: 1.3.0'));

describe('contract-gate replay over the example lake', () => {
  it('with the contract unchanged, passes every published partition as of its decision time, exit 0', async () => {
    // The wall clock is days past the examples' day: judged as of today, each would fail freshness.
    const { code, stdout, stderr, rows } = await replay('--contract', 'contracts/orders.v1.yaml', '--now', TODAY);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain("replay of orders 1.2.0 over s3://lake, the last 7 days (the default), since 2026-11-23: 2 published partitions, each judged as of the gate's decision\n");
    expect(stdout).toMatch(/^ {2}PARTITION +ATTEMPT +THEN +REPLAYED +ROWS +WHY$/m);
    expect(rows).toEqual([
      'dt=2026-11-29  <attempt>  published  published  1,200  passes',
      'dt=2026-11-30  <attempt>  published  published  1,500  passes',
    ]);
    expect(stdout).toMatch(/\nall 2 published partitions would still be published\n$/);
  });

  it('with a value dropped from an enum, shows each partition that would now be quarantined and why, exit 1', async () => {
    const { code, stdout, rows } = await replay('--contract', withoutPaid(), '--now', TODAY);
    expect(code).toBe(1);
    expect(rows).toEqual([
      'dt=2026-11-29  <attempt>  published  QUARANTINED  1,200  1 violation: enum status (480)',
      'dt=2026-11-30  <attempt>  published  QUARANTINED  1,500  1 violation: enum status (600)',
    ]);
    expect(stdout).toContain('  dt=2026-11-29 ');
    expect(stdout).toContain('      ✗ enum status: 480 rows of status have a value not in [placed, cancelled]\n          e.g. part-0000.parquet row 1: "paid"\n');
    expect(stdout).toMatch(/\n2 of 2 published partitions would have been quarantined: enum status: "paid" in 2\n$/);
  });

  it('counts in the summary only the partitions a tightened rule fails, beside those that still pass', async () => {
    const contract = proposed('orders.v1.fewer-rows.yaml', (yaml) => yaml.replace('max_rows: 5000000', 'max_rows: 1400'));
    const { code, stdout, rows } = await replay('--contract', contract, '--now', TODAY, '--last', '30');
    expect(code).toBe(1);
    expect(rows).toEqual([
      'dt=2026-11-20  <attempt>  published  published  1,200  passes',
      'dt=2026-11-29  <attempt>  published  published  1,200  passes',
      'dt=2026-11-30  <attempt>  published  QUARANTINED  1,500  1 violation: max_rows (1)',
    ]);
    expect(stdout).toMatch(/\n1 of 3 published partitions would have been quarantined: max_rows \(the partition has 1500 rows; the contract allows at most 1400\) in 1\n$/);
  });

  it('takes the partitions of --since or --last by the day in their path', async () => {
    const days = async (...args: string[]) => (await replay('--contract', withoutPaid(), ...args)).rows.map((row) => row.split('  ')[0]);
    expect(await days('--since', '2026-11-30')).toEqual(['dt=2026-11-30']);
    expect(await days('--since', '2026-11-29T00:00:00Z')).toEqual(['dt=2026-11-29', 'dt=2026-11-30']);
    expect(await days('--last', '1', '--now', TODAY)).toEqual(['dt=2026-11-29', 'dt=2026-11-30']);
    expect(await days('--last', '30', '--now', TODAY)).toEqual(['dt=2026-11-20', 'dt=2026-11-29', 'dt=2026-11-30']);
    const none = await replay('--contract', withoutPaid(), '--since', '2026-12-01');
    expect({ code: none.code, rows: none.rows }).toEqual({ code: 0, rows: [] });
    expect(none.stdout).toContain('no published partition in the window');
  });

  it('with --quarantined, replays the quarantined attempt too, which does not change the exit code', async () => {
    const { code, stdout, rows } = await replay('--contract', 'contracts/orders.v1.yaml', '--now', TODAY, '--quarantined');
    expect(code).toBe(0);
    expect(rows).toEqual([
      'dt=2026-11-28  <attempt>  quarantined  quarantined  1,200  7 violations: required amount (1), required refund_amount (1), enum status (1), and 4 more',
      'dt=2026-11-29  <attempt>  published  published  1,200  passes',
      'dt=2026-11-30  <attempt>  published  published  1,500  passes',
    ]);
    expect(stdout).toContain('2 published partitions and 1 quarantined attempt');
    expect(stdout).toContain('\nall 2 published partitions would still be published\n1 quarantined attempt: 1 would still be quarantined (');
    expect(stdout).toContain('enum status: "pending" in 1');
  });

  it('gives CI one JSON object: the partitions with both verdicts, the summary and the exit code', async () => {
    const { code, stdout } = await replay('--contract', withoutPaid(), '--now', TODAY, '--format', 'json', '--quarantined');
    const out = JSON.parse(stdout);
    expect(code).toBe(1);
    expect(out.exit_code).toBe(1);
    expect(out.partitions.map((p: { partition: string; then: string; replayed: string; changed: boolean }) => [p.partition, p.then, p.replayed, p.changed])).toEqual([
      ['dt=2026-11-28', 'quarantined', 'quarantined', false],
      ['dt=2026-11-29', 'published', 'quarantined', true],
      ['dt=2026-11-30', 'published', 'quarantined', true],
    ]);
    expect(out.partitions[2]).toMatchObject({ time: '2026-11-30T00:00:00Z', time_from: 'partition', judged_as_of: DEMO_NOW, record: 's3://lake/published/orders/v1/dt=2026-11-30/_SUCCESS' });
    expect(out.summary.published).toEqual({ replayed: 2, failing: 2, passing: 0, unreadable: 0 });
    expect(out.summary.violations).toEqual([{ rule: 'enum', column: 'status', value: 'paid', message: null, partitions: 2 }]);
    expect(out.summary.text[0]).toBe('2 of 2 published partitions would have been quarantined: enum status: "paid" in 2');
  });

  it('refuses what it cannot run with a clear error, exit 2', async () => {
    const customers = proposed('customers.v1.yaml', (yaml) => yaml.replace('name: orders', 'name: customers'));
    const cases: [string[], string][] = [
      [['--contract', customers], 's3://lake holds nothing of customers v1 (no partition under published/customers/v1/ or quarantine/customers/v1/)'],
      [['--contract', 'contracts/orders.v1.yaml', '--last', '0'], '--last must be a whole number of days, 1 or more'],
      [['--contract', 'contracts/orders.v1.yaml', '--last', '3', '--since', '2026-11-01'], 'pass --last or --since, not both'],
      [['--contract', 'contracts/orders.v1.yaml', '--since', 'yesterday'], '--since must be a day (YYYY-MM-DD, UTC) or a timestamp with an offset'],
      [['--contract', 'contracts/orders.v1.yaml', '--lats', '3'], "unknown option '--lats'; did you mean '--last'?"],
      [['--contract', join(dir, 'nowhere.yaml')], 'cannot read the contract file'],
      [['--last', '3'], '--contract and --from are required'],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await replay(...args);
      expect({ args, code, stdout, message: stderr.includes(message) }).toEqual({ args, code: 2, stdout: '', message: true });
    }
    let stderr = '';
    const elsewhere = await runCli(['replay', '--contract', 'contracts/orders.v1.yaml', '--from', 'lake'], { stdout: () => {}, stderr: (t) => void (stderr += t), isTTY: false });
    expect({ elsewhere, stderr }).toEqual({ elsewhere: 2, stderr: 'contract-gate replay: --from must be s3://<bucket>, the bucket the gate publishes into; found "lake"\n' });
    stderr = '';
    const missing = await runCli(['replay', '--contract', 'contracts/orders.v1.yaml', '--from', 's3://no-such-bucket', '--endpoint', gate.endpoint], { stdout: () => {}, stderr: (t) => void (stderr += t), isTTY: false });
    expect({ missing, says: stderr.includes('s3://no-such-bucket') }).toEqual({ missing: 2, says: true });
  });

  it('loads an ODCS contract that names no one to page or no format only with --default-notify and --default-format', async () => {
    const odcs = proposed('orders.odcs.yaml', () => SILENT_ODCS);
    const bare = await replay('--contract', odcs, '--now', TODAY);
    expect({ code: bare.code, says: bare.stderr.includes('--default-notify') }).toEqual({ code: 2, says: true });
    const given = await replay('--contract', odcs, '--now', TODAY, '--default-notify', 'oncall@example.com', '--default-format', 'parquet');
    expect(given.stderr).toContain('default_used');
    expect(given.rows.map((row) => row.split('  ')[0])).toEqual(['dt=2026-11-29', 'dt=2026-11-30']);
  });

  it('changed nothing in the bucket', async () => {
    expect(await bucketListing()).toEqual(before);
    expect(before.filter((line) => line.includes('/_SUCCESS ')).length).toBe(3);
  });
});
