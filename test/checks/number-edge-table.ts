import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';

/**
 * A table of fixed-width numbers at the edges the number vectors (formats/number-runs.ts) must
 * keep exact, for tests that read it as doubles and as values: INT64 at and past ±(2^53 − 1),
 * INT32 at its edges, NaN, ±Infinity and -0 doubles and floats, timestamps of each unit (a few
 * past the millisecond), dates before 1970, decimals past 10^15 units, nulls, and a composite
 * grain of an int64 near 2^53 and a date that repeats.
 */
export function numberEdgeSql(rows: number): string {
  const spread = (salt: number, span: string, low: string) => `(hash(i, ${salt})::HUGEINT % ${span}::HUGEINT + ${low}::HUGEINT)`;
  const nulls = (expression: string, type: string) => `(CASE WHEN i % 97 = 50 THEN NULL ELSE ${expression} END)::${type}`;
  const at = (base: string) => `${base} + to_seconds((i * 6)::BIGINT)`;
  return `SELECT
    (9007199254730000 + i // 3)::BIGINT AS g1,
    (DATE '2026-01-01' + (i % 2)::INTEGER) AS g2,
    ${nulls(`CASE i WHEN 0 THEN 9007199254740991 WHEN 1 THEN -9007199254740991 ELSE ${spread(1, '18014398509481982', '-9007199254740991')} END`, 'BIGINT')} AS i64,
    ${nulls(`CASE i WHEN 15000 THEN 9007199254740992 WHEN 15001 THEN -9223372036854775808 WHEN 15002 THEN 9223372036854775807 ELSE ${spread(2, '2000000', '-1000000')} END`, 'BIGINT')} AS i64big,
    ${nulls(`CASE i WHEN 0 THEN -2147483648 WHEN 1 THEN 2147483647 ELSE ${spread(3, '4294967296', '-2147483648')} END`, 'INTEGER')} AS i32,
    ${nulls(`CASE i % 1000 WHEN 1 THEN 'NaN'::DOUBLE WHEN 2 THEN 'Infinity'::DOUBLE WHEN 3 THEN '-Infinity'::DOUBLE WHEN 4 THEN -0.0::DOUBLE ELSE ${spread(4, '2000000', '-1000000')}::DOUBLE / 997 END`, 'DOUBLE')} AS d,
    ${nulls(`CASE i % 1000 WHEN 7 THEN 'NaN'::FLOAT WHEN 8 THEN '-Infinity'::FLOAT ELSE ${spread(5, '2000000', '-1000000')}::FLOAT / 997 END`, 'FLOAT')} AS f,
    ${nulls(at(`TIMESTAMP '2026-11-29 00:00:00'`), 'TIMESTAMP_MS')} AS ts_ms,
    ${nulls(`${at(`TIMESTAMPTZ '2026-11-29 00:00:00+00'`)} + to_microseconds(CASE WHEN i BETWEEN 12000 AND 12003 THEN 123 ELSE 0 END)`, 'TIMESTAMPTZ')} AS ts,
    ${nulls(`make_timestamp_ns(1795910400000000000 + i * 6000000000 + CASE WHEN i = 17001 THEN 7 ELSE 0 END)`, 'TIMESTAMP_NS')} AS ts_ns,
    ${nulls(`DATE '1970-01-01' + ${spread(6, '40000', '-20000')}::INTEGER`, 'DATE')} AS dt,
    ${nulls(`${spread(7, '200000', '-1000')}::DECIMAL(12,2) / 100`, 'DECIMAL(12,2)')} AS dec,
    ${nulls(`CASE WHEN i % 5000 = 9 THEN ${spread(8, '100000000000000000', '0')} ELSE ${spread(9, '100000000', '-1000')} END::DECIMAL(18,0) / 10000`, 'DECIMAL(18,4)')} AS dec18
  FROM range(${rows}) t(i)`;
}

/** Rules on every column, bounds where the edges cross them; the grain repeats within and across files. */
export function numberEdgeContract(): Contract {
  const { contract, problems } = parseContract(`name: number_edges
version: 1.0.0
owner: { team: numbers, notify: [numbers@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  grain: [g1, g2]
  columns:
    - { name: g1, type: int64, required: true }
    - { name: g2, type: date, required: true }
    - { name: i64, type: int64, required: true, min: -9007199254740990, max: 9007199254740990 }
    - { name: i64big, type: int64, min: -999999, max: 1000000 }
    - { name: i32, type: int32, required: true, min: -2147483647, max: 2147483646 }
    - { name: d, type: float64, required: true, min: -999.5, max: 1000 }
    - { name: f, type: float32, max: 1000 }
    - { name: ts_ms, type: timestamp_ntz, not_in_future: true }
    - { name: ts, type: timestamp, required: true, not_in_future: true }
    - { name: ts_ns, type: timestamp_ntz, min: "2026-11-29T00:00:01", not_in_future: true }
    - { name: dt, type: date, min: "1950-01-01", max: "2010-12-31" }
    - { name: dec, type: "decimal(12,2)", required: true, min: 0 }
    - { name: dec18, type: "decimal(18,4)", min: 0, max: 9999 }
sla:
  freshness_column: ts
  max_lag_hours: 26
`, 'number-edges.yaml');
  if (!contract) throw new Error(problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n'));
  return contract;
}
