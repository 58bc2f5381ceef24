import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../lib/report/report.js';
import { runCaptured } from '../cli/run-captured.js';
import { openDuckDB, sqlString } from '../writers/index.js';
import { importSeed, seedText } from './seed-fixtures.js';

/**
 * Each imported seed contract, run by the gate on data written with DuckDB: the rows a document
 * shows, or rows that break the rules it states one at a time, give the findings it says.
 */
let base: string;
let duck: { connection: DuckDBConnection; close: () => void };
beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'seed-validate-'));
  duck = await openDuckDB();
});
afterAll(() => {
  duck.close();
  rmSync(base, { recursive: true, force: true });
});

let count = 0;

/** Imports the seed (or `text` in its place) and writes the contract where validate reads it. */
function contractOf(file: string, text?: string): string {
  const result = importSeed(file, {}, text);
  expect(result.problems.filter((p) => p.severity === 'error')).toEqual([]);
  const dir = join(base, `contract-${count++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, result.fileName!), result.text!);
  return join(dir, result.fileName!);
}

/** One partition, one Parquet file, holding what `select` returns. */
async function partition(select: string): Promise<string> {
  const dir = join(base, `data-${count++}`, 'dt=2026-11-30');
  mkdirSync(dir, { recursive: true });
  await duck.connection.run(`COPY (${select}) TO ${sqlString(join(dir, 'part-0000.parquet'))} (FORMAT parquet)`);
  return dir;
}

async function validate(contract: string, data: string, now: string): Promise<{ code: number; found: string[]; report: Report }> {
  const { code, stdout } = await runCaptured('validate', '--contract', contract, data, '--now', now, '--format', 'json');
  const report = JSON.parse(stdout) as Report;
  return { code, report, found: report.violations.map((v) => `${v.severity} ${v.rule} ${v.column ?? '-'} ${v.count}`) };
}

describe('seed 000: the pipeline post\'s contract fails the publish on grain, enum, volume and freshness', () => {
  const rows = (n: number, updated: string) => `SELECT 'o' || i AS order_id, 'c' || (i % 50) AS customer_id, ['placed', 'paid', 'cancelled'][1 + i % 3] AS status,
    CAST(i * 1.5 AS DOUBLE) AS amount, TIMESTAMPTZ '2026-11-29 08:00:00+00' AS ordered_at, TIMESTAMPTZ ${sqlString(updated)} AS updated_at FROM range(${n}) t(i)`;

  it('passes a day of 1,200 orders updated seven hours before the check', async () => {
    const { code, found } = await validate(contractOf('000-orders_v1.yaml'), await partition(rows(1200, '2026-11-29 23:00:00+00')), '2026-11-30T06:00:00Z');
    expect(found).toEqual([]);
    expect(code).toBe(0);
  });

  it('fails 999 rows with a repeated order_id, a status outside the enum and a newest updated_at 54 hours old', async () => {
    const select = `${rows(997, '2026-11-28 00:00:00+00')} UNION ALL SELECT 'o1', 'c1', 'paid', CAST(1.5 AS DOUBLE), TIMESTAMPTZ '2026-11-29 08:00:00+00', TIMESTAMPTZ '2026-11-28 00:00:00+00'
      UNION ALL SELECT 'o999', 'c1', 'shipped', CAST(3 AS DOUBLE), TIMESTAMPTZ '2026-11-29 08:00:00+00', TIMESTAMPTZ '2026-11-28 00:00:00+00'`;
    const { code, found } = await validate(contractOf('000-orders_v1.yaml'), await partition(select), '2026-11-30T06:00:00Z');
    expect(found).toEqual(['error enum status 1', 'error grain - 1', 'error min_rows - 1', 'error freshness updated_at 1']);
    expect(code).toBe(1);
  });
});

describe('seed 001: the lesson\'s rules, each broken by one event', () => {
  const event = (id: string, status: string, revenue: string, at: string) => `SELECT ${sqlString(id)} AS order_id, 'cust-1' AS customer_id, ${sqlString(status)} AS status,
    CAST(${revenue} AS DECIMAL(12,2)) AS revenue_usd, TIMESTAMPTZ ${sqlString(at)} AS event_timestamp, TIMESTAMPTZ '2026-11-30 05:30:00+00' AS ingested_at`;
  const uuid = (n: number) => `0f8fad5b-d9cb-469f-a165-70867728950${n}`;

  it('finds the missing revenue of a shipped order, a bad id, an unknown status, a negative revenue, a future event, a repeated key, and late data as a warning', async () => {
    const events = [
      event(uuid(1), 'CONFIRMED', '10.00', '2026-11-30 05:00:00+00'),
      event(uuid(2), 'CANCELLED', 'NULL', '2026-11-30 05:00:00+00'), // null revenue is allowed when cancelled
      event(uuid(3), 'SHIPPED', 'NULL', '2026-11-30 05:00:00+00'),
      event('ORD-4', 'CONFIRMED', '10.00', '2026-11-30 05:00:00+00'),
      event(uuid(5), 'PARTIALLY_REFUNDED', '10.00', '2026-11-30 05:00:00+00'),
      event(uuid(6), 'DELIVERED', '-5.00', '2026-11-30 05:00:00+00'),
      event(uuid(7), 'CONFIRMED', '10.00', '2026-11-30 09:00:00+00'),
      event(uuid(1), 'CONFIRMED', '12.00', '2026-11-30 05:00:00+00'),
    ];
    // The newest ingested_at is 30 minutes old: past the 20-minute warning, within the 60-minute error.
    const { code, found } = await validate(contractOf('001-orders_v1.yaml'), await partition(events.join(' UNION ALL ')), '2026-11-30T06:00:00Z');
    expect(found).toEqual([
      'error required revenue_usd 1', 'error enum status 1', 'error min revenue_usd 1', 'error pattern order_id 1', 'error not_in_future event_timestamp 1',
      'error grain - 1', 'warning freshness ingested_at 1',
    ]);
    expect(code).toBe(1);
  });
});

describe('seed 002: the course module\'s batches', () => {
  // pandas' dtypes as DuckDB writes them: int64 BIGINT, float64 DOUBLE, object (text) VARCHAR.
  const batch = (rows: string[]) => rows.map((row) => `SELECT ${row}`).join(' UNION ALL ');
  const goodRows = ["CAST(1 AS BIGINT) AS order_id, CAST(100 AS BIGINT) AS customer_id, CAST(50.0 AS DOUBLE) AS amount, 'paid' AS status, '2026-08-30' AS order_date", "CAST(2 AS BIGINT), CAST(101 AS BIGINT), CAST(30.0 AS DOUBLE), 'shipped', '2026-08-30'"];
  const badFirst = "CAST(1 AS BIGINT) AS order_id, CAST(100 AS BIGINT) AS customer_id, CAST(-10.0 AS DOUBLE) AS amount, 'pending' AS status, '2026-08-30' AS order_date";
  const badSecond = "CAST(1 AS BIGINT), CAST(101 AS BIGINT), CAST(30.0 AS DOUBLE), 'paid', '2026-08-30'";
  const NOW = '2026-08-31T00:00:00Z';

  it('good_batch: no violations', async () => {
    const { code, found } = await validate(contractOf('002-orders_contract.yaml'), await partition(batch(goodRows)), NOW);
    expect(found).toEqual([]);
    expect(code).toBe(0);
  });

  it('bad_batch: the duplicate order_id, the amount below 0 and "pending" outside the enum', async () => {
    const { found, report } = await validate(contractOf('002-orders_contract.yaml'), await partition(batch([badFirst, badSecond])), NOW);
    expect(found).toEqual(['error enum status 1', 'error min amount 1', 'error unique order_id 1']);
    expect(report.violations.find((v) => v.rule === 'enum')?.samples.map((s) => s.value)).toEqual(['pending']);
  });

  it('orders_contract_v2 (enum widened, currency added nullable): only the amount on the de-duplicated batch', async () => {
    // v2 as the module builds it from v1: the same dict with the two changes it makes.
    const v2 = seedText('002-orders_contract.yaml')
      .replace('"orders_v1"', '"orders_v2"')
      .replace('"enum": ["paid", "refunded", "shipped", "cancelled"]', '"enum": ["paid", "refunded", "shipped", "cancelled", "pending"]')
      .replace('"order_date": {"type": "object", "nullable": False},', '"order_date": {"type": "object", "nullable": False},\n        "currency": {"type": "object", "nullable": True},');
    const contract = contractOf('002-orders_contract.yaml', v2);
    expect(contract).toMatch(/orders\.v2\.yaml$/);
    // The document's batch has no currency column: an optional column a file lacks reads as nulls.
    const { found, report } = await validate(contract, await partition(batch([badFirst])), NOW);
    expect(found).toEqual(['error min amount 1']);
    expect(report.notes).toContainEqual(expect.stringContaining('column currency is not in the file: its rows were read as nulls'));
  });
});

describe('seed 003: the skill\'s expectations', () => {
  it('fails a tier outside the allowed values, a churn score above 1 and a repeated customer and day', async () => {
    const row = (customer: string, tier: string, score: string) => `SELECT ${sqlString(customer)} AS customer_id, DATE '2026-11-30' AS feature_date, CAST(NULL AS INTEGER) AS days_since_last_login,
      ${sqlString(tier)} AS subscription_tier, CAST(${score} AS DOUBLE) AS predicted_churn_score`;
    const select = [row('c1', 'free', '0.2'), row('c2', 'gold', '0.3'), row('c3', 'pro', '1.5'), row('c1', 'enterprise', 'NULL')].join(' UNION ALL ');
    const { code, found } = await validate(contractOf('003-churn_features_v2.yaml'), await partition(select), '2026-11-30T06:00:00Z');
    expect(found).toEqual(['error enum subscription_tier 1', 'error max predicted_churn_score 1', 'error grain - 1']);
    expect(code).toBe(1);
  });
});

describe('seed 004: the DuckDB post\'s five rows', () => {
  const table = (id = 'id', extra = '') => `SELECT * FROM (VALUES
      (1, 'new', 10.00::DECIMAL, TIMESTAMP '2026-11-30 01:00:00', NULL${extra ? ', 0' : ''}),
      (2, 'refunded', 5.50::DECIMAL, TIMESTAMP '2026-11-30 02:00:00', 'SAVE10'${extra ? ', 0' : ''}),
      (3, 'paid', -4.00::DECIMAL, TIMESTAMP '2026-11-30 03:00:00', NULL${extra ? ', 0' : ''}),
      (3, NULL, 7.25::DECIMAL, TIMESTAMP '2026-11-30 04:00:00', NULL${extra ? ', 0' : ''}),
      (4, 'shipped', 12.00::DECIMAL, TIMESTAMP '2026-11-30 05:00:00', NULL${extra ? ', 0' : ''})
    ) AS t(${id}, status, amount, placed_at, coupon${extra})`;

  it('"each wrong in a different way": four problems, one line each; the null coupons and the null status under allowed raise nothing', async () => {
    const { code, found, report } = await validate(contractOf('004-contract.yaml'), await partition(table()), '2026-11-30T06:00:00Z');
    expect(found).toEqual(['error required status 1', 'error enum status 1', 'error min amount 1', 'error unique id 1']);
    expect(report.violations.find((v) => v.rule === 'enum')?.samples.map((s) => s.value)).toEqual(['refunded']);
    expect(code).toBe(1);
  });

  it('reports the drift the post\'s last comparison finds, and id turned into a string', async () => {
    const select = `SELECT CAST(id AS VARCHAR) AS id, status, amount, placed_at, coupon, discount FROM (${table('id', ', discount')})`;
    const { found } = await validate(contractOf('004-contract.yaml'), await partition(select), '2026-11-30T06:00:00Z');
    expect(found).toEqual(expect.arrayContaining(['error unexpected_column discount 1', 'error type id 1']));
  });
});
