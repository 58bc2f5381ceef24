import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { valueRulesFor } from '../../lib/checks/value-rules.js';
import type { ColumnSpec } from '../../lib/contract/model.js';
import { formatTextReport } from '../../lib/report/text-report.js';
import { duckdbParquet } from '../fixtures/duckdb-parquet.js';
import { contractOfColumns, memoryFile, validate } from '../fixtures/partition.js';

const contractFor = (rules: string) => contractOfColumns('scores', `{ name: score, type: float64, required: true${rules} }`);

/** Scores 0..99, NaN at rows 3 and 500, -1 at row 7 and 101 at row 8. */
const SCORES = `SELECT CASE WHEN i IN (3, 500) THEN 'NaN'::DOUBLE WHEN i = 7 THEN -1.0 WHEN i = 8 THEN 101.0 ELSE (i % 100)::DOUBLE END AS score FROM range(1000) AS t(i)`;

function hyparquetScores(): Uint8Array {
  const data = Array.from({ length: 1000 }, (_, i) => (i === 3 || i === 500 ? NaN : i === 7 ? -1 : i === 8 ? 101 : i % 100));
  return new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'score', data, type: 'DOUBLE' }], statistics: true }));
}

const byMessage = (report: Awaited<ReturnType<typeof validate>>) => Object.fromEntries(report.violations.map((v) => [v.message, { rule: v.rule, rows: v.samples.map((s) => s.row), values: v.samples.map((s) => s.value) }]));

describe('a NaN in a float column with a range', () => {
  it.each([
    ['DuckDB (dictionary-encoded, no float statistics)', () => duckdbParquet(SCORES)],
    ['hyparquet-writer with statistics', async () => hyparquetScores()],
  ])('is reported once as NaN, apart from values below or above the bounds, in a file written by %s', async (_, write) => {
    const report = await validate(contractFor(', min: 0, max: 100'), [memoryFile('s.parquet', await write())]);
    expect(byMessage(report)).toEqual({
      '2 rows of score are NaN, which is not a number within [0, 100]': { rule: 'min', rows: [3, 500], values: ['NaN', 'NaN'] },
      '1 row of score is below the minimum 0': { rule: 'min', rows: [7], values: [-1] },
      '1 row of score is above the maximum 100': { rule: 'max', rows: [8], values: [101] },
    });
  });

  it('is reported under max with the bound it misses when the column has only a maximum', async () => {
    const report = await validate(contractFor(', max: 100'), [memoryFile('s.parquet', await duckdbParquet(SCORES))]);
    expect(report.violations.map((v) => [v.rule, v.count, v.message])).toEqual([
      ['max', 2, '2 rows of score are NaN, which is not a number at or below the maximum 100'],
      ['max', 1, '1 row of score is above the maximum 100'],
    ]);
  });

  it('counts as a value for required: only a null is missing', async () => {
    const report = await validate(contractFor(''), [memoryFile('s.parquet', await duckdbParquet(SCORES))]);
    expect(report.status).toBe('pass');
  });

  it('reads as NaN in the text report, message and sample', async () => {
    const report = await validate(contractFor(', min: 0'), [memoryFile('s.parquet', await duckdbParquet(`SELECT 'NaN'::DOUBLE AS score`))]);
    expect(formatTextReport(report).split('\n').slice(1, 3)).toEqual([
      '  ✗ min score: 1 row of score is NaN, which is not a number at or above the minimum 0',
      '      e.g. s.parquet row 0: "NaN"',
    ]);
  });
});

describe('valueRulesFor and NaN', () => {
  const spec = (type: ColumnSpec['type'], rules: Partial<ColumnSpec>): ColumnSpec => ({ name: 'x', type, typeText: type.kind, required: false, notInFuture: false, ...rules } as ColumnSpec);
  const failing = (column: ColumnSpec, value: unknown) => valueRulesFor(column, { at: 0, text: "1970-01-01T00:00:00.000Z", due: false }).filter((r) => r.fails(value)).map((r) => `${r.rule}: ${r.detail}`);

  it('fails a NaN under one rule, not under both min and max', () => {
    expect(failing(spec({ kind: 'float32' }, { min: 0, max: 1 }), NaN)).toEqual(['min: {count} {row|rows} of x {is|are} NaN, which is not a number within [0, 1]']);
    expect(failing(spec({ kind: 'float64' }, { min: 0, max: 1 }), Infinity)).toEqual(['max: {count} {row|rows} of x {is|are} above the maximum 1']);
  });

  it('never counts NaN as an enum member, even when a numeric enum lists it', () => {
    expect(failing(spec({ kind: 'float64' }, { enum: [1.5, NaN] }), NaN)).toEqual(['enum: {count} {row|rows} of x {is|are} NaN, which is not a number in [1.5, NaN]']);
    expect(failing(spec({ kind: 'float64' }, { enum: [1.5, NaN] }), 1.5)).toEqual([]);
  });

  it('still fails a NaN that reaches a column of a type that cannot hold one', () => {
    expect(failing(spec({ kind: 'int32' }, { min: 0 }), NaN)).toEqual(['min: {count} {row|rows} of x {is|are} below the minimum 0']);
  });
});
