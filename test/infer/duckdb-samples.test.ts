import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqlString, withDuckDB } from '../writers/index.js';
import { column, expectPasses, inferContract, tempDir } from './infer-helpers.js';

/**
 * Two partitions DuckDB writes with its defaults, under the gate's `<name>/v<major>/dt=…`
 * layout: nullable columns (customer and note null in the second partition only), decimals of
 * two scales, instants, wall-clock time, dates, booleans and a BIGINT.
 */
async function writePayments(root: string): Promise<string[]> {
  const dirs = ['2026-11-28', '2026-11-29'].map((day) => join(root, 'payments', 'v2', `dt=${day}`));
  await withDuckDB(async (connection) => {
    for (const [p, dir] of dirs.entries()) {
      mkdirSync(dir, { recursive: true });
      const day = `DATE '2026-11-${28 + p}'`;
      await connection.run(`COPY (
        SELECT 'pay_' || lpad(i::VARCHAR, 5, '0') AS payment_id,
               CASE WHEN ${p} = 1 AND i % 50 = 0 THEN NULL ELSE (i % 97)::INTEGER END AS customer,
               (i * 1.125)::DECIMAL(10,3) AS amount,
               CASE WHEN i % 4 = 0 THEN NULL ELSE (i / 7.0)::DECIMAL(18,4) END AS fee,
               (${day} + INTERVAL (i * 3) SECOND)::TIMESTAMPTZ AS paid_at,
               (${day} + INTERVAL (i * 2) SECOND)::TIMESTAMP AS local_ts,
               ${day} AS booked_on,
               i % 3 = 0 AS refunded,
               (i * 1000000007)::BIGINT AS ledger_seq,
               CASE WHEN ${p} = 1 AND i = 5 THEN NULL ELSE ['card', 'sepa', 'cash'][1 + i % 3] END AS method
        FROM range(${500 + p * 250}) t(i)
      ) TO ${sqlString(join(dir, 'part-0000.parquet'))} (FORMAT parquet)`);
    }
  });
  return dirs;
}

describe('infer on Parquet files DuckDB wrote', () => {
  it('reads nullable columns and decimals, takes the name and major from the folders, and passes both partitions', async () => {
    const dirs = await writePayments(tempDir());
    const { contract, text } = await inferContract(dirs, 'payments.v2.yaml');
    expect(contract.name).toBe('payments');
    expect(contract.version.text).toBe('2.0.0');
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required])).toEqual([
      ['payment_id', 'string', true],
      ['customer', 'int32', false],
      ['amount', 'decimal(10,3)', true],
      ['fee', 'decimal(18,4)', false],
      ['paid_at', 'timestamp', true],
      ['local_ts', 'timestamp_ntz', true],
      ['booked_on', 'date', true],
      ['refunded', 'boolean', true],
      ['ledger_seq', 'int64', true],
      ['method', 'string', false],
    ]);
    expect(column(contract, 'method').enum).toEqual(['card', 'cash', 'sepa']);
    expect(column(contract, 'amount')).toMatchObject({ min: 0, max: 850 });
    expect(column(contract, 'customer')).toMatchObject({ min: 0, max: 96 });
    expect(contract.schema.grain).toEqual(['payment_id']);
    expect(contract.sla).toMatchObject({ freshnessColumn: 'paid_at', minRows: 250, maxRows: 1500 });
    expect(text).toContain('# customer: seen 1,250 rows in 2 partitions, 15 nulls (in 1 of 2 partitions): not required');
    await expectPasses(contract, dirs);
  });
});
