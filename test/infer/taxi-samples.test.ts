import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../lib/contract/model.js';
import { sqlString, withDuckDB } from '../writers/index.js';
import { column, expectExplained, expectPasses, inferContract, tempDir } from './infer-helpers.js';

const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03'];
const ROWS = [1500, 1200, 1300];

/**
 * A day of taxi trips as a loader writes them: two vendors, each numbering its trips
 * (vendor_id, trip_seq: the key; trip_seq alone repeats across vendors), pickups spread over
 * the day a few seconds apart (so pickup_at happens to be unique), drop-offs to the minute, and
 * ingested_at the time of the load at 06:00 the next morning, a minute per 500 rows.
 */
function tripsOf(day: string, p: number): string {
  const step = Math.floor(86_000_000 / ROWS[p]!);
  // A scrambled 0..n-1 per row and column: DuckDB's hash of the row number, partition and column.
  const scrambled = (salt: number, n: number) => `(hash(i, ${p}, ${salt}) % ${n})::INTEGER`;
  return `SELECT (1 + i % 2)::INTEGER AS vendor_id,
      (${p * 10_000} + i // 2)::BIGINT AS trip_seq,
      pickup AS pickup_at,
      date_trunc('minute', pickup) + INTERVAL (5 + ${scrambled(0, 40)}) MINUTE AS dropoff_at,
      (TIMESTAMPTZ '${day} 06:00:00+00' + INTERVAL 1 DAY + INTERVAL (i // 500) MINUTE) AS ingested_at,
      1 + ${scrambled(1, 4)} AS passenger_count,
      round(${scrambled(2, 2000)} / 100.0, 2)::DOUBLE AS trip_distance,
      (2.50 + ${scrambled(2, 2000)} / 40.0)::DECIMAL(10,2) AS fare_amount,
      ['card', 'cash', 'no_charge', 'dispute'][1 + ${scrambled(3, 4)}] AS payment_type,
      'zone_' || ${scrambled(4, 263)}::VARCHAR AS pu_zone
    FROM (SELECT i, TIMESTAMPTZ '${day} 00:00:00+00' + INTERVAL (i * ${step}) MILLISECOND AS pickup FROM range(${ROWS[p]}) t(i))`;
}

const FORMATS = [
  ['Parquet', 'FORMAT parquet', 'parquet'],
  ['CSV', 'FORMAT csv, HEADER', 'csv'],
  ['JSON Lines', 'FORMAT json', 'jsonl'],
] as const;

/** The three days, each one file, in `taxi_trips/dt=<day>/`, as DuckDB writes the format. */
async function writeTrips(root: string, options: string, extension: string): Promise<string[]> {
  const dirs = DAYS.map((day) => join(root, 'taxi_trips', `dt=${day}`));
  await withDuckDB(async (connection) => {
    for (const [p, dir] of dirs.entries()) {
      mkdirSync(dir, { recursive: true });
      await connection.run(`COPY (${tripsOf(DAYS[p]!, p)}) TO ${sqlString(join(dir, `part-0.${extension}`))} (${options})`);
    }
  });
  return dirs;
}

describe.each(FORMATS)('infer on taxi trips DuckDB wrote as %s', (_name, options, extension) => {
  let dirs: string[];
  let inferred: { contract: Contract; text: string; why: string };
  beforeAll(async () => {
    dirs = await writeTrips(tempDir(), options, extension);
    inferred = await inferContract([join(dirs[0]!, '..')], 'taxi_trips.v1.yaml');
  });

  it('takes the business key (vendor_id, trip_seq) as the grain over the timestamp that happens to be unique, and says why', async () => {
    const { contract, text, why } = inferred;
    expect(contract.schema.grain).toEqual(['vendor_id', 'trip_seq']);
    expectExplained(text, why, [
      'grain: vendor_id, trip_seq: both id-like; unique together and non-null in each of 3 samples (checked per partition, as the gate checks it), and no smaller key with an id-like column is',
      'pickup_at: unique in 3 of 3 samples, but a timestamp: unique by chance',
      'trip_seq: an id-like name, but a value repeats within dt=2026-03-01 (sample 1 of 3): part of the key, not a key alone',
      'vendor_id: an id-like name, but a value repeats within dt=2026-03-01 (sample 1 of 3): part of the key, not a key alone',
    ]);
    expect(why).toMatch(/\n {2}search: every column alone; then \d+ pairs of vendor_id, trip_seq, /);
    expect(why).not.toContain('WARNING');
    await expectPasses(contract, dirs);
  });

  it('measures freshness on the load time ingested_at, not the event times, and says why', () => {
    const { contract, text, why } = inferred;
    expect(contract.sla?.freshnessColumn).toBe('ingested_at');
    expectExplained(text, why, [
      'freshness_column: ingested_at: its name says when the row was loaded, and freshness is about when data arrives: a load time shows that, where an event time shows how old the events are',
      'pickup_at: an event time: it shows how old the events are, not when the data arrived',
      'dropoff_at: an event time: it shows how old the events are, not when the data arrived',
    ]);
    expect(text).toContain("# max_lag_hours: newest value at or after its partition's end in every sample (as a load time's is), so no lag to add, plus 24 h");
    expect(column(contract, 'pickup_at').notInFuture).toBe(true);
  });

  it('sets no bounds on the id columns, whose new values fall outside any range seen', () => {
    const { contract, text } = inferred;
    expect(column(contract, 'trip_seq')).toMatchObject({ min: undefined, max: undefined });
    expect(column(contract, 'vendor_id')).toMatchObject({ min: undefined, max: undefined });
    expect(column(contract, 'passenger_count')).toMatchObject({ min: 1, max: 4 });
    expect(text).toContain('# trip_seq: observed range 0 to 20649; no min/max: an id-like name: an identifier that grows');
  });
});
