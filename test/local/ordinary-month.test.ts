import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { keys as listKeys, readJson } from '../gate/owner-action-fixture.js';
import { openDuckDB, sqlString } from '../writers/duckdb-session.js';

/**
 * Issue 26's acceptance, through serve: a taxi team's ordinary month after the first day. An
 * optional column added in a minor version, backfills of days a month old, and a new major
 * published in the afternoon. Data is written by DuckDB; the gate's clock is pinned and moved.
 */
const V1 = `name: trips
version: 1.0.0
owner: { team: taxi, notify: [taxi-oncall@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  grain: [vendor_id, trip_seq]
  columns:
    - { name: vendor_id, type: int32, required: true }
    - { name: trip_seq, type: int64, required: true }
    - { name: pickup_at, type: timestamp, required: true, not_in_future: true }
    - { name: ingested_at, type: timestamp, required: true }
    - { name: fare_amount, type: "decimal(10,2)", required: true, min: 0 }
    - { name: pu_zone, type: string }
sla:
  arrival_by: "06:00"
  timezone: UTC
  max_lag_hours: 26
  freshness_column: ingested_at
  min_rows: 100
compat: { mode: backward }
`;
const V1_1 = V1.replace('version: 1.0.0', 'version: 1.1.0').replace('    - { name: pu_zone, type: string }', '    - { name: pu_zone, type: string }\n    - { name: do_zone, type: string }');
const V2 = V1_1.replace('version: 1.1.0', 'version: 2.0.0').replace('grain: [vendor_id, trip_seq]', 'grain: [vendor_id, trip_seq, pickup_at]');
/** v1 as the team leaves it when v2 ships, and the migration document publish asks for beside v2. */
const V1_DEPRECATED = V1_1.replace('version: 1.1.0', 'version: 1.2.0\nstatus: deprecated\nsunset: 2027-03-31');
const V2_MIGRATION = `# trips v1 to v2

## What changed and why
The grain adds pickup_at: a vendor's trip_seq restarts each day.

## Affected downstream models
fct_trips.

## Deprecation timeline
2026-12-06 the window opens; 2027-03-31 v1 sunset.

## Action required from consumers
Join trips on (vendor_id, trip_seq, pickup_at).
`;

let now = Date.parse('2026-12-05T07:00:00Z');
let gate: LocalGate;
let dir: string;
let duck: Awaited<ReturnType<typeof openDuckDB>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-month-'));
  mkdirSync(join(dir, 'contracts'));
  mkdirSync(join(dir, 'lake'));
  writeFileSync(join(dir, 'contracts', 'trips.v1.yaml'), V1);
  gate = await startLocalGate({ dir: join(dir, 'lake'), contractsDir: join(dir, 'contracts'), bucket: 'lake', port: 0, clock: () => now, print: () => {}, probeEveryMs: 50, resumeEveryMs: 0 });
  duck = await openDuckDB();
}, 60_000);
afterAll(async () => {
  duck?.close();
  await gate?.stop();
});

/** 200 trips of one day as DuckDB writes them; ingested an hour after pickup, or at `ingestedAt` for all. */
async function dropTrips(major: number, day: string, ingestedAt?: string): Promise<string> {
  const path = join(dir, `trips-v${major}-${day}.parquet`);
  const ingested = ingestedAt ? `TIMESTAMPTZ ${sqlString(ingestedAt)}` : `pickup_at + INTERVAL 1 HOUR`;
  await duck.connection.run(`COPY (
    SELECT vendor_id, trip_seq, pickup_at, ${ingested} AS ingested_at, fare_amount, pu_zone FROM (
      SELECT (i % 3 + 1)::INTEGER AS vendor_id, i::BIGINT AS trip_seq,
        TIMESTAMPTZ ${sqlString(`${day} 00:00:00+00`)} + to_minutes((i * 6)::BIGINT) AS pickup_at,
        (2.5 + i % 50)::DECIMAL(10,2) AS fare_amount, 'Z' || (i % 10) AS pu_zone
      FROM range(200) t(i))
  ) TO ${sqlString(path)} (FORMAT parquet)`);
  const bytes = new Uint8Array(readFileSync(path));
  const partition = `dt=${day}`;
  await dropPartition(gate.store, DEFAULT_LAYOUT, `staging/trips/v${major}/${partition}/`, [{ relative: 'part-0000.parquet', size: bytes.length, read: async () => bytes }]);
  await gate.settled();
  return partition;
}

const keys = (prefix: string) => listKeys(gate.store, prefix);
const json = (key: string) => readJson<any>(gate.store, key);

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  return { code: await runCli(args, io), stdout, stderr };
}

function notices(): { outcome: string; contract: string; version: string; partition: string }[] {
  const file = join(dir, 'lake', 'notifications.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line).attributes);
}

async function quarantineReport(partition: string): Promise<any> {
  const report = (await keys(`quarantine/trips/v1/${partition}/`)).find((key) => key.endsWith('_REPORT.json'));
  return json(report!);
}

describe('a real team\'s ordinary month, through serve', () => {
  it('publishes the first day', async () => {
    expect(await keys(`published/trips/v1/${await dropTrips(1, '2026-12-04')}/`)).toContain('published/trips/v1/dt=2026-12-04/_SUCCESS');
  });

  it('calls an optional column added in 1.1.0 non-breaking, and publishes the next drop of unchanged data', async () => {
    const next = join(dir, 'next', 'trips.v1.yaml');
    mkdirSync(join(dir, 'next'));
    writeFileSync(next, V1_1);
    const diff = await cli('diff', join(dir, 'contracts', 'trips.v1.yaml'), next);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/non-breaking +column_added do_zone: column "do_zone" was added: it is optional/);
    expect((await cli('publish', next, '--to', 's3://lake', '--endpoint', gate.endpoint)).code).toBe(0);
    now = Date.parse('2026-12-06T05:00:00Z');
    const partition = await dropTrips(1, '2026-12-05');
    const success = await json(`published/trips/v1/${partition}/_SUCCESS`);
    expect(success.contract).toMatchObject({ name: 'trips', version: '1.1.0' });
  });

  it('publishes a backfill of a day 30 days old whose data was fresh for that day', async () => {
    const partition = await dropTrips(1, '2026-11-06');
    expect(await keys(`published/trips/v1/${partition}/`)).toContain(`published/trips/v1/${partition}/_SUCCESS`);
  });

  it('quarantines a backfill whose data was 30 days stale for its own day, saying when that day was due', async () => {
    const partition = await dropTrips(1, '2026-11-07', '2026-10-08 12:00:00+00');
    expect(await keys(`published/trips/v1/${partition}/`)).toEqual([]);
    const report = await quarantineReport(partition);
    expect(report.violations.map((v: any) => [v.rule, v.column])).toEqual([['freshness', 'ingested_at']]);
    expect(report.violations[0].message).toBe('the newest ingested_at is 2026-10-08T12:00:00.000Z, 738.0 hours before 2026-11-08T06:00:00.000Z, when dt=2026-11-07 was due; the contract allows 26');
  });

  it('raises no page for days due before a new major was published, and pages the first day due after it', async () => {
    now = Date.parse('2026-12-06T16:03:00Z');
    writeFileSync(join(dir, 'next', 'trips.v1.yaml'), V1_DEPRECATED);
    expect((await cli('publish', join(dir, 'next', 'trips.v1.yaml'), '--to', 's3://lake', '--endpoint', gate.endpoint)).code).toBe(0);
    writeFileSync(join(dir, 'contracts', 'trips.v2.yaml'), V2);
    mkdirSync(join(dir, 'contracts', 'migrations'));
    writeFileSync(join(dir, 'contracts', 'migrations', 'trips_v1_to_v2.md'), V2_MIGRATION);
    expect((await cli('publish', join(dir, 'contracts', 'trips.v2.yaml'), '--to', 's3://lake', '--endpoint', gate.endpoint)).code).toBe(0);
    now = Date.parse('2026-12-06T16:10:00Z');
    // The probe runs every 50 ms; once it has seen v2 it has recorded since when v2 is expected.
    while (!(await gate.store.head('_gate/expected/trips/v2.json'))) await sleep(20);
    now = Date.parse('2026-12-07T06:10:00Z');
    const paged = () => notices().some((n) => n.outcome === 'sla_missed' && n.version === 'v2' && n.partition === 'dt=2026-12-06');
    while (!paged()) await sleep(20);
    expect(notices().filter((n) => n.version === 'v2').map((n) => `${n.outcome} ${n.partition}`)).toEqual(['sla_missed dt=2026-12-06']);
  });
});
