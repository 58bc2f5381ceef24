import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractFrom, memoryFile, validate } from '../fixtures/partition.js';
import { queryRows, sqlString } from '../writers/duckdb-session.js';
import { useDuckDBScratch } from '../writers/duckdb-scratch.js';

/**
 * Values one unit of the type (1 ulp of the scale, 1 ns, 1 µs, 1 ms, 1 day) on either side of
 * each bound, written by DuckDB as Parquet, CSV and JSON Lines; the counts below the min and
 * above the max must be DuckDB SQL's over the same rows. In doubles each of these passed.
 */
interface ExactCase {
  readonly name: string;
  /** The contract type and its bounds as YAML. */
  readonly type: string;
  readonly min: string;
  readonly max: string;
  /** The column `v` over `range(2000) t(i)`; `d` is i % 7 - 3, the step from the bound. */
  readonly value: string;
  /** The bounds as DuckDB literals, for the oracle. */
  readonly minSql: string;
  readonly maxSql: string;
  /** The observed max as the report prints it. */
  readonly observedMax: string;
  readonly formats?: readonly Format[];
}

type Format = 'parquet' | 'csv' | 'jsonl';

const CASES: ExactCase[] = [
  {
    name: 'DECIMAL(38,10) by 1e-10 around 1000000',
    type: '"decimal(38,10)"', min: '999999.9999999999', max: '1000000',
    value: '(1000000::DECIMAL(38,10) + d * 0.0000000001::DECIMAL(38,10))::DECIMAL(38,10)',
    minSql: '999999.9999999999::DECIMAL(38,10)', maxSql: '1000000::DECIMAL(38,10)', observedMax: '1000000.0000000003',
  },
  {
    name: 'DECIMAL(38,10) by 1e-10 around 1e12',
    type: '"decimal(38,10)"', min: '999999999999.9999999999', max: '1000000000000.0000000001',
    value: '(1000000000000::DECIMAL(38,10) + d * 0.0000000001::DECIMAL(38,10))::DECIMAL(38,10)',
    minSql: '999999999999.9999999999::DECIMAL(38,10)', maxSql: '1000000000000.0000000001::DECIMAL(38,10)', observedMax: '1000000000000.0000000003',
  },
  {
    name: 'DECIMAL(18,3) by 0.001 around 1e14',
    type: '"decimal(18,3)"', min: '99999999999999.999', max: '1e14',
    value: '(100000000000000::DECIMAL(18,3) + d * 0.001::DECIMAL(18,3))::DECIMAL(18,3)',
    minSql: '99999999999999.999::DECIMAL(18,3)', maxSql: '100000000000000::DECIMAL(18,3)', observedMax: '100000000000000.003',
  },
  {
    name: 'DECIMAL(9,2) (INT32) by 0.01 around 1234567',
    type: '"decimal(9,2)"', min: '1234566.99', max: '1234567.01',
    value: '(1234567::DECIMAL(9,2) + d * 0.01::DECIMAL(9,2))::DECIMAL(9,2)',
    minSql: '1234566.99::DECIMAL(9,2)', maxSql: '1234567.01::DECIMAL(9,2)', observedMax: '1234567.03',
  },
  {
    name: 'BIGINT by 1 around 2^53',
    type: 'int64', min: '9007199254740991', max: '9007199254740993',
    value: '9007199254740992::BIGINT + d',
    minSql: '9007199254740991', maxSql: '9007199254740993', observedMax: '9007199254740995',
  },
  {
    name: 'BIGINT by 1 below 2^63',
    type: 'int64', min: '-9223372036854775807', max: '9223372036854775805',
    value: 'CASE WHEN i % 2 = 0 THEN 9223372036854775804::BIGINT + (i % 4) ELSE -9223372036854775805::BIGINT - (i % 4) END',
    minSql: '-9223372036854775807', maxSql: '9223372036854775805', observedMax: '9223372036854775806',
  },
  {
    name: 'TIMESTAMP_NS by 1 ns around midnight',
    type: 'timestamp_ntz', min: '"2025-12-31T23:59:59.999999999"', max: '"2026-01-01T00:00:00"',
    value: 'make_timestamp_ns(1767225600000000000 + d)',
    minSql: "TIMESTAMP_NS '2025-12-31 23:59:59.999999999'", maxSql: "TIMESTAMP_NS '2026-01-01 00:00:00'", observedMax: '2026-01-01T00:00:00.000000003Z',
  },
  {
    name: 'TIMESTAMP (µs) by 1 µs in 2300, past what nanoseconds reach',
    type: 'timestamp_ntz', min: '"2299-12-31T23:59:59.999999"', max: '"2300-01-01T00:00:00.000001"',
    value: "TIMESTAMP '2300-01-01 00:00:00' + to_microseconds(d)",
    minSql: "TIMESTAMP '2299-12-31 23:59:59.999999'", maxSql: "TIMESTAMP '2300-01-01 00:00:00.000001'", observedMax: '2300-01-01T00:00:00.000003Z',
  },
  {
    name: 'TIMESTAMP_MS by 1 ms around midnight',
    type: 'timestamp_ntz', min: '"2025-12-31T23:59:59.999"', max: '"2026-01-01T00:00:00.001"',
    value: 'make_timestamp_ms(1767225600000 + d)',
    minSql: "TIMESTAMP '2025-12-31 23:59:59.999'", maxSql: "TIMESTAMP '2026-01-01 00:00:00.001'", observedMax: '2026-01-01T00:00:00.003Z',
  },
  {
    name: 'DATE by 1 day around 1900-01-01 and 2300-01-01',
    type: 'date', min: '"1899-12-31"', max: '"2300-01-01"',
    value: "CASE WHEN i % 2 = 0 THEN DATE '1900-01-01' + d::INTEGER ELSE DATE '2300-01-01' + d::INTEGER END",
    minSql: "DATE '1899-12-31'", maxSql: "DATE '2300-01-01'", observedMax: '2300-01-04',
  },
];

const FORMATS: readonly Format[] = ['parquet', 'csv', 'jsonl'];
const COPY_OPTIONS: Record<Format, string> = { parquet: 'FORMAT parquet', csv: 'FORMAT csv, HEADER true', jsonl: 'FORMAT json' };

const session = useDuckDBScratch('cg-exact-');

async function writeCase(c: ExactCase, format: Format): Promise<Uint8Array> {
  const path = session.path(`${c.name.replace(/\W+/g, '-')}.${format}`);
  await session.connection.run(`COPY (SELECT ${c.value} AS v FROM (SELECT i, i % 7 - 3 AS d FROM range(2000) t(i))) TO ${sqlString(path)} (${COPY_OPTIONS[format]})`);
  return new Uint8Array(readFileSync(path));
}

async function oracle(c: ExactCase): Promise<{ below: number; above: number }> {
  const [row] = await queryRows(session.connection, `SELECT count(*) FILTER (WHERE v < ${c.minSql}) AS below, count(*) FILTER (WHERE v > ${c.maxSql}) AS above
    FROM (SELECT ${c.value} AS v FROM (SELECT i, i % 7 - 3 AS d FROM range(2000) t(i)))`);
  return { below: Number(row!.below), above: Number(row!.above) };
}

function contractFor(c: ExactCase, format: Format) {
  return contractFrom(`name: exact
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: ${format} }
schema:
  columns:
    - { name: v, type: ${c.type}, required: true, min: ${c.min}, max: ${c.max} }
`);
}

describe('bounds and values compared exactly', () => {
  for (const c of CASES) {
    for (const format of c.formats ?? FORMATS) {
      it(`counts ${c.name} below min and above max as DuckDB SQL does, from ${format}`, async () => {
        const expected = await oracle(c);
        const report = await validate(contractFor(c, format), [memoryFile(`v.${format}`, await writeCase(c, format))]);
        const count = (rule: string) => report.violations.filter((v) => v.rule === rule).reduce((sum, v) => sum + v.count, 0);
        expect({ below: count('min'), above: count('max'), other: report.violations.filter((v) => v.rule !== 'min' && v.rule !== 'max').map((v) => v.message) })
          .toEqual({ ...expected, other: [] });
        expect(expected.below).toBeGreaterThan(0);
        expect(expected.above).toBeGreaterThan(0);
        expect(report.observed?.[0]?.max).toBe(c.observedMax);
      });
    }
  }
});

describe('freshness judged exactly', () => {
  // 2026-11-30T10:25:36.386Z: a double of its epoch nanoseconds is 256 ns coarse, of its epoch ms with a fraction 244 ns.
  const checkMs = 1_796_034_336_386;
  const freshContract = contractFrom(`name: exact
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: parquet }
schema:
  columns:
    - { name: updated_at, type: timestamp_ntz, required: true }
sla: { freshness_column: updated_at, max_lag_hours: 0 }
`);

  for (const [stepNs, late] of [[-1, true], [-100, true], [0, false], [1, false]] as const) {
    it(`finds a TIMESTAMP_NS newest ${stepNs} ns from the check time ${late ? 'late' : 'fresh'} under max_lag_hours 0`, async () => {
      const path = session.path(`fresh${stepNs}.parquet`);
      await session.connection.run(`COPY (SELECT make_timestamp_ns(${checkMs}000000 + ${stepNs} - i * 1000) AS updated_at FROM range(100) t(i)) TO ${sqlString(path)} (FORMAT parquet)`);
      const report = await validate(freshContract, [memoryFile('v.parquet', new Uint8Array(readFileSync(path)))], checkMs);
      expect(report.violations.map((v) => v.rule)).toEqual(late ? ['freshness'] : []);
    });
  }
});
