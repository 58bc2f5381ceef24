import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqlString, withDuckDB } from '../writers/index.js';
import { expectExplained, expectPasses, inferContract, tempDir } from './infer-helpers.js';

const DAYS = ['2026-05-01', '2026-05-02'];

/**
 * Writes one file per day with DuckDB: `select(day, p)` is the SELECT of partition p, `options`
 * the COPY options after the format. Returns the partition folders, `<dataset>/dt=<day>`.
 */
async function writeDays(dataset: string, format: 'parquet' | 'csv' | 'json', select: (day: string, p: number) => string, options = ''): Promise<string[]> {
  const root = tempDir();
  const dirs = DAYS.map((day) => join(root, dataset, `dt=${day}`));
  const extension = format === 'json' ? 'jsonl' : format;
  await withDuckDB(async (connection) => {
    for (const [p, dir] of dirs.entries()) {
      mkdirSync(dir, { recursive: true });
      const copy = [`FORMAT ${format}`, ...(format === 'csv' ? ['HEADER'] : []), ...(options ? [options] : [])].join(', ');
      await connection.run(`COPY (${select(DAYS[p]!, p)}) TO ${sqlString(join(dir, `part-0.${extension}`))} (${copy})`);
    }
  });
  return dirs;
}

/** A scrambled 0..n-1 per row, partition and salt, from DuckDB's hash. */
const scrambled = (p: number, salt: number, n: number) => `(hash(i, ${p}, ${salt}) % ${n})::INTEGER`;

describe('infer chooses a grain as a careful analyst would', () => {
  it('takes a plain id over a unique timestamp and a unique float, and searches no further', async () => {
    const dirs = await writeDays('customers', 'parquet', (day, p) => `
      SELECT (i + 1)::BIGINT AS id, 'name ' || ${scrambled(p, 0, 50)} AS name,
             TIMESTAMPTZ '${day} 00:00:00+00' + INTERVAL (i * 37) SECOND AS created_at,
             TIMESTAMPTZ '${day} 00:00:00+00' + INTERVAL (i * 37 + 5) SECOND AS updated_at,
             (i * 0.731 + ${p})::DOUBLE AS score
      FROM range(${400 + p * 100}) t(i)`);
    const { contract, text, why } = await inferContract(dirs, 'customers.v1.yaml');
    expect(contract.schema.grain).toEqual(['id']);
    expectExplained(text, why, [
      'grain: id: an id-like name, unique and non-null in each of 2 samples (checked per partition, as the gate checks it)',
      'created_at: unique in 2 of 2 samples, but a timestamp: unique by chance',
      'score: unique in 2 of 2 samples, but a float: unique by chance',
    ]);
    // A single id-like key cannot be beaten by a larger one: no composite search.
    expect(why).not.toContain('search:');
    expect(contract.sla?.freshnessColumn).toBe('updated_at');
    expectExplained(text, why, [
      'freshness_column: updated_at: its name says when the source last changed the row; no load time (ingested_at, loaded_at, _etl_loaded_at, …) is among the columns, which would show arrival more directly',
      'created_at: an event time: it shows how old the events are, not when the data arrived',
    ]);
    await expectPasses(contract, dirs);
  });

  it('takes a column of UUID strings, whatever its name, over a unique column whose name says nothing', async () => {
    const dirs = await writeDays('rides', 'json', (day, p) => `
      SELECT md5('ride-' || ${p} || '-' || i)::UUID::VARCHAR AS ride_ref, 'rider' || (${p} * 1000 + i) || '@example.com' AS rider_email,
             TIMESTAMPTZ '${day} 08:00:00+00' + INTERVAL (i * 61) SECOND AS requested_at, ['s', 'm', 'l'][1 + ${scrambled(p, 1, 3)}] AS size
      FROM range(300) t(i)`);
    const { contract, text, why } = await inferContract(dirs, 'rides.v1.yaml');
    expect(contract.produces.format).toBe('jsonl');
    expect(contract.schema.grain).toEqual(['ride_ref']);
    expectExplained(text, why, [
      'grain: ride_ref: every value a UUID, unique and non-null in each of 2 samples (checked per partition, as the gate checks it)',
      'rider_email: unique in 2 of 2 samples, but its name does not say it is a key',
      'requested_at: unique in 2 of 2 samples, but a timestamp: unique by chance',
    ]);
    await expectPasses(contract, dirs);
  });

  it('declares no grain when nothing is unique, and says so and what it tried', async () => {
    // Every reading is delivered twice: no column, pair or triple can be a key.
    const dirs = await writeDays('readings', 'csv', (day, p) => `
      WITH once AS (
        SELECT 'st-' || (i % 5) AS station_id, TIMESTAMPTZ '${day} 00:00:00+00' + INTERVAL (i * 60) SECOND AS read_at,
               ${scrambled(p, 1, 3)} AS channel, round(${scrambled(p, 2, 900)} / 10.0, 1)::DOUBLE AS celsius
        FROM range(200) t(i))
      SELECT * FROM once UNION ALL SELECT * FROM once`);
    const { contract, text, why } = await inferContract(dirs, 'readings.v1.yaml');
    expect(contract.schema.grain).toEqual([]);
    expectExplained(text, why, [
      'grain: none: no single column, pair or triple of columns tried is unique and non-null in every sample: the samples show no key, so the contract declares none',
      'station_id: an id-like name, but a value repeats within dt=2026-05-01 (sample 1 of 2)',
      'search: every column alone; then 3 pairs of station_id, channel, read_at; then 1 triple of station_id, channel, read_at',
    ]);
    await expectPasses(contract, dirs);
  });

  it('takes a unique timestamp only when nothing else is unique, with a warning', async () => {
    const dirs = await writeDays('app_log', 'csv', (day, p) => `
      SELECT ['info', 'warn', 'error'][1 + ${scrambled(p, 1, 3)}] AS level, 'message ' || ${scrambled(p, 2, 20)} AS message,
             TIMESTAMPTZ '${day} 00:00:00+00' + INTERVAL (i * 7) SECOND AS logged_at
      FROM range(300) t(i)`);
    const { contract, text, why } = await inferContract(dirs, 'app_log.v1.yaml');
    expect(contract.schema.grain).toEqual(['logged_at']);
    expectExplained(text, why, [
      'grain: logged_at: unique and non-null in each of 2 samples (checked per partition, as the gate checks it), and nothing else is',
      'WARNING: logged_at is a timestamp, unique in these samples most likely by chance, and nothing better was: declare the real key, or remove the grain, before relying on this contract',
    ]);
    await expectPasses(contract, dirs);
  });

  it('finds a pair of id-like columns among many plausible ones, and says which it left untried', async () => {
    // 20 low-cardinality codes before the key; the key (shop_id, line_no) comes last.
    const codes = Array.from({ length: 20 }, (_, k) => `(i % ${2 + (k % 5)})::INTEGER AS code_${String(k).padStart(2, '0')}`).join(', ');
    const dirs = await writeDays('basket_lines', 'csv', () => `SELECT ${codes}, 'shop-' || (i % 3) AS shop_id, (i // 3)::INTEGER AS line_no FROM range(240) t(i)`);
    const { contract, why } = await inferContract(dirs, 'basket_lines.v1.yaml');
    expect(contract.schema.grain).toEqual(['shop_id', 'line_no']);
    expect(why).toContain('grain: shop_id, line_no: both id-like; unique together and non-null in each of 2 samples');
    expect(why).toMatch(/search: every column alone; then 66 pairs of shop_id, line_no, code_00, .*; 10 more columns not tried \(at most 12, id-like first\)/);
  });
});

describe('a key the writer declared', () => {
  /**
   * Trips with a UUID per trip and (vendor_id, trip_seq), in Parquet whose footer carries
   * `pandas` metadata naming an index as pandas (with pyarrow) records one. No pyarrow here to
   * write it, so DuckDB writes the same key-value pair (its KV_METADATA option).
   */
  async function tripsWithIndex(index: readonly string[]): Promise<string[]> {
    const pandas = JSON.stringify({ index_columns: index, column_indexes: [], columns: [], creator: { library: 'pyarrow', version: '14.0.2' }, pandas_version: '1.5.3' });
    return writeDays('trips', 'parquet', (day, p) => `
      SELECT md5('trip-' || ${p} || '-' || i)::UUID::VARCHAR AS trip_uuid, (1 + i % 2)::INTEGER AS vendor_id, (i // 2)::BIGINT AS trip_seq,
             TIMESTAMPTZ '${day} 00:00:00+00' + INTERVAL (i * 50) SECOND AS pickup_at
      FROM range(500) t(i)`, `KV_METADATA {pandas: ${sqlString(pandas)}}`);
  }

  it('takes the declared key over a unique UUID column', async () => {
    const dirs = await tripsWithIndex(['vendor_id', 'trip_seq']);
    const { contract, text, why } = await inferContract(dirs, 'trips.v1.yaml');
    expect(contract.schema.grain).toEqual(['vendor_id', 'trip_seq']);
    expectExplained(text, why, [
      'grain: vendor_id, trip_seq: declared by the pandas index (Parquet metadata "pandas"), and unique together and non-null in each of 2 samples (checked per partition, as the gate checks it)',
      'trip_uuid: unique in 2 of 2 samples, but vendor_id + trip_seq is the declared key',
    ]);
    await expectPasses(contract, dirs);
  });

  it('takes an id-like column over a pandas index on a timestamp, which is unique by chance', async () => {
    const dirs = await tripsWithIndex(['pickup_at']);
    const { contract, text, why } = await inferContract(dirs, 'trips.v1.yaml');
    expect(contract.schema.grain).toEqual(['trip_uuid']);
    expectExplained(text, why, ['pickup_at: unique in 2 of 2 samples, but a timestamp: unique by chance']);
  });

  it('says a declared key is not unique, and finds the grain without it', async () => {
    const dirs = await tripsWithIndex(['vendor_id']);
    const { contract, text, why } = await inferContract(dirs, 'trips.v1.yaml');
    expect(contract.schema.grain).toEqual(['trip_uuid']);
    expectExplained(text, why, [
      'vendor_id: declared by the pandas index (Parquet metadata "pandas"), but a value repeats within dt=2026-05-01 (sample 1 of 2)',
    ]);
  });
});
