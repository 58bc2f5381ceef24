import { describe, expect, it } from 'vitest';
import { typeMismatchDetail } from '../../lib/checks/type-mismatch.js';
import { formatTextReport } from '../../lib/report/text-report.js';
import { duckdbParquet } from '../fixtures/duckdb-parquet.js';
import { contractOfColumns, counts, memoryFile, validate } from '../fixtures/partition.js';

const contractFor = (type: string) => contractOfColumns('events', `{ name: seen_at, type: ${type}, required: true }`);

// DuckDB's TIMESTAMP is wall-clock time (isAdjustedToUTC=false); TIMESTAMPTZ is a UTC instant.
const written = (sqlType: string) => duckdbParquet(`SELECT CAST(TIMESTAMPTZ '2026-11-29 10:00:00+00' + to_seconds(i) AS ${sqlType}) AS seen_at FROM range(10) AS t(i)`);

describe('a timestamp column written as the other timestamp kind (files written by DuckDB)', () => {
  it('passes when the file holds the kind the contract declares', async () => {
    expect(counts(await validate(contractFor('timestamp'), [memoryFile('tz.parquet', await written('TIMESTAMPTZ'))]))).toEqual({});
    expect(counts(await validate(contractFor('timestamp_ntz'), [memoryFile('ntz.parquet', await written('TIMESTAMP'))]))).toEqual({});
  });

  it('says local time is timestamp_ntz and names the fix in DuckDB, pandas, Spark or the contract', async () => {
    const files = [memoryFile('a.parquet', await written('TIMESTAMP')), memoryFile('b.parquet', await written('TIMESTAMP'))];
    const report = await validate(contractFor('timestamp'), files);
    expect(report.violations).toHaveLength(1);
    const [violation] = report.violations;
    expect(violation).toMatchObject({ rule: 'type', column: 'seen_at', count: 2 });
    expect(violation?.samples[0]).toEqual({ file: 'a.parquet', row: null, value: 'INT64 TIMESTAMP(MICROS, local) (timestamp_ntz)' });
    const [what, fix] = violation!.message.split('\n');
    expect(what).toBe('column seen_at is not timestamp in 2 files: the data is timestamp_ntz (wall-clock time, not adjusted to UTC), the contract asks for UTC instants');
    expect(fix).toMatch(/^fix: write it UTC-adjusted \(DuckDB: TIMESTAMPTZ, e\.g\. CAST\(seen_at AS TIMESTAMPTZ\)/);
    expect(fix).toContain("pandas: df['seen_at'].dt.tz_localize('UTC')");
    expect(fix).toContain('Spark: TIMESTAMP_LTZ, not TIMESTAMP_NTZ, e.g. CAST(seen_at AS TIMESTAMP_LTZ), and spark.sql.timestampType=TIMESTAMP_LTZ');
    expect(fix).toMatch(/or declare seen_at as timestamp_ntz in the contract$/);
  });

  it('says UTC-adjusted data is timestamp when the contract declares timestamp_ntz, and how to write wall-clock time', async () => {
    const report = await validate(contractFor('timestamp_ntz'), [memoryFile('tz.parquet', await written('TIMESTAMPTZ'))]);
    const [what, fix] = report.violations[0]!.message.split('\n');
    expect(what).toBe('column seen_at is not timestamp_ntz in 1 file: the data is timestamp (UTC-adjusted instants), the contract asks for wall-clock time');
    expect(fix).toContain('DuckDB: TIMESTAMP, e.g. CAST(seen_at AS TIMESTAMP)');
    expect(fix).toContain("pandas: df['seen_at'].dt.tz_localize(None)");
    expect(fix).toContain('Spark: TIMESTAMP_NTZ, e.g. CAST(seen_at AS TIMESTAMP_NTZ) or spark.sql.timestampType=TIMESTAMP_NTZ');
    expect(fix).toMatch(/or declare seen_at as timestamp in the contract$/);
  });

  it('prints the fix on its own line of the text report, above the samples', async () => {
    const report = await validate(contractFor('timestamp'), [memoryFile('a.parquet', await written('TIMESTAMP'))]);
    const lines = formatTextReport(report).split('\n');
    expect(lines[1]).toMatch(/^ {2}✗ type seen_at: column seen_at is not timestamp in 1 file: the data is timestamp_ntz/);
    expect(lines[2]).toMatch(/^ {6}fix: write it UTC-adjusted/);
    expect(lines[3]).toBe('      e.g. a.parquet: "INT64 TIMESTAMP(MICROS, local) (timestamp_ntz)"');
  });

  it('keeps the plain message for other mismatches', async () => {
    const report = await validate(contractFor('date'), [memoryFile('tz.parquet', await written('TIMESTAMPTZ'))]);
    expect(report.violations[0]?.message).toBe('column seen_at is not date in 1 file');
  });
});

describe('typeMismatchDetail', () => {
  it('quotes a column name that is no plain identifier in the SQL and Python it suggests', () => {
    const [column] = contractOfColumns('events', `{ name: "seen at's", type: timestamp }`).schema.columns;
    const detail = typeMismatchDetail(column!, { kind: 'timestamp_ntz' });
    expect(detail).toContain(`CAST("seen at's" AS TIMESTAMPTZ)`);
    expect(detail).toContain(`df['seen at\\'s']`);
  });
});
