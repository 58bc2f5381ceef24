import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { spanRecords } from '../../lib/checks/observed-ranges.js';
import { PartitionState } from '../../lib/checks/partition-state.js';
import { checkFileSchema } from '../../lib/checks/schema-check.js';
import { columnsToDecode } from '../../lib/checks/settle-by-statistics.js';
import { ViolationLog } from '../../lib/checks/violation-log.js';
import type { Contract } from '../../lib/contract/model.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openTable } from '../../lib/formats/open-table.js';
import type { RowGroupInfo } from '../../lib/formats/table-file.js';
import type { ObservedRange } from '../../lib/report/report.js';
import { contractFrom, memoryFile, validate } from '../fixtures/partition.js';
import { openDuckDB, queryRows, sqlIdent, sqlString, writeCached, writerVariant, type LogicalTable } from '../writers/index.js';

const NOW = Date.parse('2026-11-30T05:00:00Z');
const DAY = 86_400_000;
const FIRST_DAY = Date.parse('2026-01-01T00:00:00Z');

const contract = (format: string, columns: string) => contractFrom(`name: ranges
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: ${format} }
schema:
  columns:
${columns}`);

/** Every kind of range rule, a column without one (`label`), and one that is always null (`empty`). */
const COLUMNS: Record<string, string> = {
  label: '{ name: label, type: string }',
  qty: '{ name: qty, type: int32, min: 0, max: 1000 }',
  big: '{ name: big, type: int64, min: 0 }',
  price: '{ name: price, type: "decimal(12,2)", min: 0 }',
  score: '{ name: score, type: float64, min: 0, max: 100 }',
  day: '{ name: day, type: date, min: "2026-01-01" }',
  at: '{ name: at, type: timestamp, not_in_future: true, max: "2030-01-01T00:00:00Z" }',
  empty: '{ name: empty, type: float64, min: 0 }',
};
const columnsOf = (...names: string[]) => names.map((name) => `    - ${COLUMNS[name]}\n`).join('');
const ALL = Object.keys(COLUMNS);

const ROWS = 12_000;

/** 12,000 rows with a violation in a few row groups only, so most groups are settled by their footers. */
function rangedTable(): LogicalTable {
  const rows = Array.from({ length: ROWS }, (_, i) => i);
  return {
    rows: ROWS,
    columns: [
      { name: 'label', type: 'string', nullable: false, values: rows.map((i) => `row ${i}`) },
      { name: 'qty', type: 'int32', nullable: true, values: rows.map((i) => (i % 11 === 0 ? null : i === 5_000 ? -3 : 5 + ((i * 37) % 900))) },
      { name: 'big', type: 'int64', nullable: false, values: rows.map((i) => 17 + i * 1_000_003) },
      { name: 'price', type: 'decimal', precision: 12, scale: 2, nullable: true, values: rows.map((i) => (i % 17 === 0 ? null : (((i * 7_919) % 100_000) + 1) / 100)) },
      { name: 'score', type: 'float64', nullable: true, values: rows.map((i) => (i === 77 || i === 9_000 ? NaN : i === 3_333 ? 150.5 : i % 13 === 0 ? null : (i % 1_000) / 10 + 0.25)) },
      { name: 'day', type: 'date', nullable: false, values: rows.map((i) => FIRST_DAY + ((i * 7) % 300) * DAY) },
      { name: 'at', type: 'timestamp', nullable: false, values: rows.map((i) => (i === 11_000 ? NOW + 3_600_000 : NOW - 1_000 - i * 61_007)) },
      { name: 'empty', type: 'float64', nullable: true, values: rows.map(() => null) },
    ],
  };
}

let duck: Awaited<ReturnType<typeof openDuckDB>>;
beforeAll(async () => {
  duck = await openDuckDB();
}, 60_000);
afterAll(() => duck?.close());

const text = (value: unknown) => (value === null ? null : String(value));

/** What the contract allows, as the report should say it. */
const ALLOWED: Record<string, Partial<ObservedRange>> = {
  qty: { allowed_min: '0', allowed_max: '1000' },
  big: { allowed_min: '0' },
  price: { allowed_min: '0' },
  score: { allowed_min: '0', allowed_max: '100' },
  day: { allowed_min: '2026-01-01' },
  at: { allowed_max: new Date(NOW).toISOString() },
  empty: { allowed_min: '0' },
};

/** DuckDB's min() or max() of a column, as text the way the contract writes bounds; NaN is no bound, so it is filtered out. */
function aggregate(column: string, fn: 'min' | 'max'): string {
  const c = sqlIdent(column);
  switch (column) {
    case 'day': return `strftime(${fn}(${c}), '%Y-%m-%d')`;
    case 'at': return `strftime(${fn}(${c}), '%Y-%m-%dT%H:%M:%S.%gZ')`;
    // A decimal as the double the engine reads it as, not DuckDB's text with trailing zeros.
    case 'price': return `${fn}(${c})::DOUBLE`;
    case 'score':
    case 'empty': return `${fn}(${c}) FILTER (WHERE NOT isnan(${c}))`;
    default: return `${fn}(${c})`;
  }
}

/** The observed ranges DuckDB computes over the file, for the named ranged columns in contract order. */
async function duckdbRanges(path: string, columns: readonly string[]): Promise<ObservedRange[]> {
  const ranged = columns.filter((column) => column in ALLOWED);
  const selects = ranged.flatMap((column, i) => [`${aggregate(column, 'min')} AS min${i}`, `${aggregate(column, 'max')} AS max${i}`]);
  const [row] = await queryRows(duck.connection, `SELECT ${selects.join(', ')} FROM read_parquet(${sqlString(path)})`);
  return ranged.map((column, i) => ({ column, min: text(row![`min${i}`]), max: text(row![`max${i}`]), ...ALLOWED[column] }));
}

/**
 * Runs the engine's row-group selection over a file as a check does: which columns each row group
 * decodes, and the spans of the ranged columns settled without decoding (from footers, dictionaries).
 */
async function selection(path: string, contractOf: Contract): Promise<{ decoded: string[][]; settled: Record<string, { min: string; max: string }> }> {
  const plan = buildCheckPlan(contractOf, NOW);
  const table = openTable('parquet', byteSourceFromBytes(new Uint8Array(readFileSync(path))));
  const readable = checkFileSchema(plan, await table.schema(), 'r.parquet', new ViolationLog([], plan.severityOf));
  const state = new PartitionState(plan);
  const decoded: string[][] = [];
  const select = async (group: RowGroupInfo) => {
    const names = await columnsToDecode(plan, readable, group, state);
    decoded.push(names);
    return names;
  };
  for await (const batch of table.batches(readable.map((c) => c.plan.spec.name), { select })) expect(batch.rowCount).toBeGreaterThan(0);
  return { decoded, settled: Object.fromEntries(spanRecords(state.spans).map(({ column, min, max }) => [column, { min, max }])) };
}

const table = rangedTable();
const VARIANTS = ['duckdb-small-groups', 'duckdb-v2', 'hyparquet-default', 'hyparquet-nostats', 'hyparquet-dictionary', 'arrow-rs-nostats'];

describe('Report.observed of Parquet files', () => {
  it.each(VARIANTS)('holds the min and max DuckDB computes over a file written by %s, row groups decoded or settled by footers', async (id) => {
    const path = await writeCached(writerVariant(id), table, 'observed-ranges');
    const report = await validate(contract('parquet', columnsOf(...ALL)), [memoryFile('r.parquet', readFileSync(path))], NOW);
    expect(report.observed).toEqual(await duckdbRanges(path, ALL));
    expect(report.violations.map((v) => `${v.rule}:${v.column}`).sort()).toEqual(['max:score', 'min:qty', 'min:score', 'not_in_future:at']);
  }, 60_000);

  it.each(['duckdb-small-groups', 'hyparquet-dictionary'])('takes the footer statistics of the row groups it settles without decoding (%s)', async (id) => {
    // Only qty and at break a rule, each in one row group: the other groups, and big and day in
    // every group, are proven by their footers and not decoded.
    const path = await writeCached(writerVariant(id), table, 'observed-ranges');
    const ranges = contract('parquet', columnsOf('qty', 'big', 'day', 'at'));
    const { decoded, settled } = await selection(path, ranges);
    expect(decoded.length).toBeGreaterThan(2);
    expect(decoded.filter((names) => names.includes('qty'))).toEqual([['qty']]);
    expect(decoded.filter((names) => names.includes('at'))).toEqual([['at']]);
    const observed = await duckdbRanges(path, ['qty', 'big', 'day', 'at']);
    // big and day come from statistics alone, and equal DuckDB's.
    expect(settled).toMatchObject({ big: { min: observed[1]!.min, max: observed[1]!.max } });
    expect((await validate(ranges, [memoryFile('r.parquet', readFileSync(path))], NOW)).observed).toEqual(observed);
  }, 60_000);

  it('takes the dictionary entries of float row groups its dictionary proves (float footer bounds are not trusted)', async () => {
    // 5000-row groups: the first holds a NaN and is decoded; the others, holding the least and
    // the greatest value, are proven by their dictionaries.
    const scores = Array.from({ length: 15_000 }, (_, i) => (i === 77 ? NaN : i === 7_000 ? 0.5 : i === 12_345 ? 99.5 : 10 + (i % 40) / 2));
    const dictionaryTable: LogicalTable = { rows: scores.length, columns: [{ name: 'score', type: 'float64', nullable: true, values: scores }] };
    const path = await writeCached(writerVariant('hyparquet-dictionary'), dictionaryTable, 'observed-dictionary');
    const ranges = contract('parquet', columnsOf('score'));
    const { decoded, settled } = await selection(path, ranges);
    expect(decoded).toEqual([['score'], [], []]);
    expect(settled).toEqual({ score: { min: '0.5', max: '99.5' } });
    const report = await validate(ranges, [memoryFile('r.parquet', readFileSync(path))], NOW);
    expect(report.observed).toEqual(await duckdbRanges(path, ['score']));
  }, 60_000);
});

/** Rows for text files: a null qty (an array of values), NaN scores (a Float64Array), an int64 past 2^53, never a value for `empty`. */
const TEXT_ROWS = [
  { label: 'a', qty: 12, big: '9007199254740993', price: '1.50', score: '3.5', day: '2026-03-04', at: '2026-11-29T10:00:00Z' },
  { label: 'b', qty: null, big: '-4', price: null, score: 'NaN', day: '2025-12-31', at: '2026-11-30T06:00:00Z' },
  { label: 'c', qty: 1_200, big: '7', price: '0.05', score: '-0.25', day: '2026-01-01', at: '2026-11-28T23:59:59.5Z' },
  { label: 'd', qty: -1, big: '12', price: '12', score: '99.75', day: '2026-02-28', at: '2026-11-30T04:59:59Z' },
];

const TEXT_OBSERVED: ObservedRange[] = [
  { column: 'qty', min: '-1', max: '1200', allowed_min: '0', allowed_max: '1000' },
  { column: 'big', min: '-4', max: '9007199254740993', allowed_min: '0' },
  { column: 'price', min: '0.05', max: '12', allowed_min: '0' },
  { column: 'score', min: '-0.25', max: '99.75', allowed_min: '0', allowed_max: '100' },
  { column: 'day', min: '2025-12-31', max: '2026-03-04', allowed_min: '2026-01-01' },
  { column: 'at', min: '2026-11-28T23:59:59.500Z', max: '2026-11-30T06:00:00.000Z', allowed_max: '2026-11-30T05:00:00.000Z' },
  { column: 'empty', min: null, max: null, allowed_min: '0' },
];

function csvOf(rows: typeof TEXT_ROWS): string {
  const lines = rows.map((r) => [r.label, r.qty ?? '', r.big, r.price ?? '', r.score, r.day, r.at, ''].join(','));
  return `label,qty,big,price,score,day,at,empty\n${lines.join('\n')}\n`;
}

function jsonlOf(rows: typeof TEXT_ROWS): string {
  // A long integer literal (big), as JSON writers print an int64; NaN as the string JSON needs for it.
  const line = (r: (typeof TEXT_ROWS)[number]) => `{"label":"${r.label}","qty":${r.qty},"big":${r.big},"price":${r.price},"score":${r.score === 'NaN' ? '"NaN"' : r.score},"day":"${r.day}","at":"${r.at}","empty":null}`;
  return `${rows.map(line).join('\n')}\n`;
}

/** How the reader delivers `score` for these bytes: the test is about the Float64Array path only if it is one. */
async function scoreValues(format: 'csv' | 'jsonl', contractOf: Contract, bytes: string): Promise<unknown> {
  const table = openTable(format, byteSourceFromBytes(new TextEncoder().encode(bytes)));
  await table.schema();
  const parse = new Map(contractOf.schema.columns.map((c) => [c.name, c.type]));
  for await (const batch of table.batches(['score'], { parse })) return batch.columns.get('score');
  return undefined;
}

describe('Report.observed of text files', () => {
  it.each([
    ['csv', csvOf],
    ['jsonl', jsonlOf],
  ] as const)('holds the least and greatest %s value of each ranged column, across files, NaN left out and an all-null column null', async (format, write) => {
    const ranges = contract(format, columnsOf(...ALL));
    const files = [memoryFile(`a.${format}`, write(TEXT_ROWS.slice(0, 2))), memoryFile(`b.${format}`, write(TEXT_ROWS.slice(2)))];
    const report = await validate(ranges, files, NOW);
    expect(report.observed).toEqual(TEXT_OBSERVED);
    expect(await scoreValues(format, ranges, write(TEXT_ROWS))).toBeInstanceOf(Float64Array);
  });

  it('takes the smaller of max and the check time as a not_in_future column\'s allowed max', async () => {
    const ranges = contract('csv', '    - { name: at, type: timestamp, not_in_future: true, max: "2026-11-01T00:00:00Z" }\n');
    const report = await validate(ranges, [memoryFile('a.csv', 'at\n2026-10-01T00:00:00Z\n')], NOW);
    expect(report.observed).toEqual([{ column: 'at', min: '2026-10-01T00:00:00.000Z', max: '2026-10-01T00:00:00.000Z', allowed_max: '2026-11-01T00:00:00.000Z' }]);
  });

  it('is left out of a report whose contract has no range rule', async () => {
    const plain = contract('csv', '    - { name: label, type: string, required: true }\n    - { name: qty, type: int32 }\n');
    const report = await validate(plain, [memoryFile('a.csv', 'label,qty\na,1\n')], NOW);
    expect(report.status).toBe('pass');
    expect('observed' in report).toBe(false);
  });
});
