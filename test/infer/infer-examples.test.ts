import { describe, expect, it } from 'vitest';
import { checkPartition, column, expectPasses, inferContract } from './infer-helpers.js';

const GOOD = 'contracts/examples/orders/good/dt=2026-11-29';
const DUCKDB = 'contracts/examples/orders/duckdb/dt=2026-11-29';

describe('infer on the example partitions', () => {
  it('proposes a contract from the good partition that lints and passes it', async () => {
    const { contract, text } = await inferContract([GOOD, '--name', 'orders'], 'orders.v1.yaml');
    expect(contract.produces).toEqual({ format: 'parquet', partition: 'dt={ds}' });
    expect(contract.schema.grain).toEqual(['order_id']);
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required])).toEqual([
      ['order_id', 'string', true],
      ['status', 'string', true],
      ['amount', 'decimal(12,2)', true],
      ['refund_amount', 'float64', false],
      ['ordered_at', 'timestamp', true],
      ['updated_at', 'timestamp', true],
      ['coupon', 'string', false],
    ]);
    expect(column(contract, 'status').enum).toEqual(['cancelled', 'paid', 'placed']);
    expect(column(contract, 'amount')).toMatchObject({ min: 0, max: 1000 });
    expect(contract.sla).toMatchObject({ freshnessColumn: 'updated_at', maxLagHours: 25, minRows: 600, maxRows: 2400 });
    expect(text).toContain('# order_id: seen 1,200 rows in 1 partition, no nulls: required');
    expect(text).toContain('# TODO: the owning team');
    await expectPasses(contract, [GOOD]);
  });

  it('proposes one contract from the hyparquet-written and the DuckDB-written partitions that passes both', async () => {
    const { contract } = await inferContract([GOOD, DUCKDB, '--name', 'orders'], 'orders.v1.yaml');
    expect(contract.schema.grain).toEqual(['order_id']);
    expect(contract.sla).toMatchObject({ minRows: 600, maxRows: 3000 });
    await expectPasses(contract, [GOOD, DUCKDB]);
  });

  it('fails the bad example on what the good one showed', async () => {
    const { contract } = await inferContract([GOOD, '--name', 'orders'], 'orders.v1.yaml');
    const report = await checkPartition(contract, 'contracts/examples/orders/bad/dt=2026-11-29');
    expect(report.violations.map((v) => v.rule)).toEqual(expect.arrayContaining(['enum', 'grain']));
  });
});
