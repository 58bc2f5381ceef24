import { WriterVersion } from 'parquet-wasm/node';
import { arrowTypes, rowGroupsAtLeast, statisticsHideMax, statisticsMinAboveMax, usesEncoding, usesPageType } from './heldout-claims.js';
import { heldoutCase, lit, planted, rnd, type HeldoutCase, type HeldoutTable } from './heldout-case.js';
import { arrowRsWriter, parquetjsWriter } from './heldout-js-writers.js';
import { duckdbParquet } from './heldout-writers.js';

const NULL = 'NULL';
/** Epoch µs of a random instant from 1995-01-01 to 2026-11-29 (a fifth before 2001-09-09, when epoch ms gains a digit). */
const since1995 = (k: number, unitMicros: number) => `make_timestamp(788918400000000 + ${rnd(k, 1_007_000_000)} * 1000000 + ${rnd(k + 1, 1_000_000 / unitMicros)} * ${unitMicros})`;
const in2027 = 'make_timestamp(1803945600000000 + i)';

/**
 * INT64 given to parquetjs as text: nine-digit ids with 9e12 planted (the footer's string order
 * keeps "999…" as the max), and quantities of 2 to 89 whose string order makes min "10" > max "9".
 */
const parquetjsIntegers: HeldoutTable = {
  label: 'int64-utf8', rows: 12_000, columns: [
    { name: 'id', sqlType: 'BIGINT', type: 'int64', required: true, max: '5000000000', parquetjs: 'INT64',
      value: planted(`100000000 + ${rnd(1, 899_995_001)}`, [1499, 700, '9000000000000 + i'], [2999, 100, '5000000001']) },
    { name: 'qty', sqlType: 'BIGINT', type: 'int64', min: '1', max: '100', parquetjs: 'INT64',
      value: planted(`2 + ${rnd(2, 88)}`, [1201, 300, '101'], [6007, 600, '0'], [97, 3, NULL]) },
    { name: 'name', sqlType: 'VARCHAR', type: 'string', required: true, minLength: 1, parquetjs: 'UTF8',
      value: planted(`'name-' || i`, [1711, 5, NULL], [2003, 11, "''"]) },
    { name: 'code', sqlType: 'VARCHAR', type: 'string', enum: ['a', 'b', 'c'], parquetjs: 'UTF8',
      value: planted(`['a', 'b', 'c'][i % 3 + 1]`, [1777, 9, "'zz'"], [13, 4, NULL]) },
  ],
};

/** TIMESTAMP_MILLIS and _MICROS as epoch text from 1995 on, with 2027 planted against not_in_future. */
const parquetjsTimestamps: HeldoutTable = {
  label: 'timestamps', rows: 12_000, columns: [
    { name: 'ts_ms', sqlType: 'TIMESTAMPTZ', type: 'timestamp', notInFuture: true, parquetjs: 'TIMESTAMP_MILLIS',
      value: planted(since1995(3, 1000), [1499, 800, in2027], [101, 7, NULL]) },
    { name: 'ts_us', sqlType: 'TIMESTAMPTZ', type: 'timestamp', required: true, notInFuture: true, min: '1995-01-01T00:00:00Z', parquetjs: 'TIMESTAMP_MICROS',
      value: planted(since1995(5, 1), [1301, 650, in2027], [1601, 100, 'make_timestamp(788918399999999)'], [1709, 17, NULL]) },
  ],
};

const PARQUETJS = [
  parquetjsWriter('groups-1500', { rowGroupSize: 1500 }),
  parquetjsWriter('v2-pages', { rowGroupSize: 4000, useDataPageV2: true, pageSize: 1000 }),
];

/** Strings, a dictionary, 64-bit and unsigned integers and a wide decimal, each at an edge. */
const arrowTable: HeldoutTable = {
  label: 'dictionary-large-types', rows: 20_000, columns: [
    { name: 'color', sqlType: 'VARCHAR', type: 'string', required: true, enum: ['red', 'green', 'blue'], dictionary: true,
      value: planted(`['red', 'green', 'blue'][${rnd(6, 3)} + 1]`, [1999, 5, "'purple'"], [2503, 17, NULL]) },
    { name: 'key', sqlType: 'VARCHAR', type: 'string', pattern: '^k-[0-9]+$', maxLength: 12,
      value: planted(`'k-' || i`, [1777, 3, "'k-x'"], [1901, 50, `'k-' || repeat('9', 11)`], [11, 2, NULL]) },
    { name: 'big', sqlType: 'BIGINT', type: 'int64', min: '-9007199254740992', max: '9007199254740992',
      value: planted(`${rnd(7, 2n ** 53n)} - 4503599627370496`, [2999, 9, '9007199254740993'], [3001, 10, '-9007199254740993'], [4001, 20, '9223372036854775807'], [2203, 30, '9007199254740992']) },
    { name: 'u32', sqlType: 'UINTEGER', type: 'int64', required: true, max: '3000000000',
      value: planted(rnd(8, 3_000_000_001), [2203, 1, '3000000001'], [2207, 2, '4294967295']) },
    { name: 'amount', sqlType: 'DECIMAL(38,10)', type: 'decimal(38,10)', min: '-1000000', max: '1000000',
      value: planted(decimalText(9, 999_999, 10), [1999, 100, lit('1000000.0000000001', 'DECIMAL(38,10)')], [2011, 200, lit('-1000000.0000000001', 'DECIMAL(38,10)')], [2017, 300, lit('1000000', 'DECIMAL(38,10)')]) },
  ],
};

/** An unsigned 64-bit column past 2^63: no contract type holds it (a `type` finding, not a misread). */
const uint64Table: HeldoutTable = {
  label: 'uint64', rows: 5000, columns: [
    { name: 'u64', sqlType: 'UBIGINT', type: 'int64', required: true,
      value: planted(rnd(10, 4_294_967_296), [997, 3, lit('9223372036854775808', 'UBIGINT')], [1009, 5, lit('18446744073709551615', 'UBIGINT')]) },
    { name: 'n', sqlType: 'BIGINT', type: 'int64', min: '0', value: planted('i', [499, 7, '-1']) },
  ],
};

const ARROW_RS = [
  arrowRsWriter('default', 'defaults (dictionary, v1 pages)', (b) => b),
  arrowRsWriter('v2-groups-4096', 'writer version 2, 4096-row groups, dictionary pages capped at 1 KiB', (b) => b.setWriterVersion(WriterVersion.V2).setMaxRowGroupSize(4096).setDictionaryPageSizeLimit(1024)),
];

/** `±digits.fraction` with `scale` digits: exact text cast to a decimal, never through a double. */
function decimalText(k: number, integerRange: number, scale: number): string {
  const fraction = `lpad(CAST(${rnd(k + 1, 10n ** BigInt(scale))} AS VARCHAR), ${scale}, '0')`;
  return `CAST(CAST(${rnd(k, 2 * integerRange + 1)} - ${integerRange} AS VARCHAR) || '.' || ${fraction} AS DECIMAL(38,${scale}))`;
}

/** DuckDB's types at their edges, each bound missed by one unit of the type. */
const duckdbEdges: HeldoutTable = {
  label: 'edges', rows: 30_000, columns: [
    { name: 'dec38', sqlType: 'DECIMAL(38,10)', type: 'decimal(38,10)', min: '-1000000', max: '1000000',
      value: planted(decimalText(11, 999_999, 10), [1999, 100, lit('1000000.0000000001', 'DECIMAL(38,10)')], [2011, 200, lit('-1000000.0000000001', 'DECIMAL(38,10)')], [97, 1, NULL]) },
    { name: 'dec18', sqlType: 'DECIMAL(18,3)', type: 'decimal(18,3)', min: '0', max: '100000000000000',
      value: planted(`CAST(CAST(${rnd(13, 10n ** 14n)} AS VARCHAR) || '.' || lpad(CAST(${rnd(14, 1000)} AS VARCHAR), 3, '0') AS DECIMAL(18,3))`,
        [1997, 3, lit('100000000000000.001', 'DECIMAL(18,3)')], [2003, 4, lit('-0.001', 'DECIMAL(18,3)')], [2027, 5, lit('100000000000000', 'DECIMAL(18,3)')]) },
    { name: 'ts_ns', sqlType: 'TIMESTAMP_NS', type: 'timestamp_ntz', min: '1960-01-01T00:00:00', max: '2026-11-30T12:00:00',
      value: planted(`make_timestamp_ns((-315619200 + ${rnd(15, 2_111_659_200)}) * 1000000000 + ${rnd(16, 1_000_000_000)})`,
        [1993, 5, lit('2026-11-30 12:00:00.000000001', 'TIMESTAMP_NS')], [1999, 6, lit('1959-12-31 23:59:59.999999999', 'TIMESTAMP_NS')],
        [3989, 7, lit('2262-04-11 23:47:16.854775806', 'TIMESTAMP_NS')], [3991, 8, lit('1677-09-22 00:00:00', 'TIMESTAMP_NS')], [89, 9, NULL]) },
    { name: 'ts_ms', sqlType: 'TIMESTAMP_MS', type: 'timestamp_ntz', min: '1900-01-01T00:00:00', max: '2026-11-30T12:00:00',
      value: planted(`make_timestamp((-2208988800 + ${rnd(17, 4_004_000_000)}) * 1000000 + ${rnd(18, 1000)} * 1000)`,
        [1993, 10, lit('2026-11-30 12:00:00.001', 'TIMESTAMP_MS')], [1999, 11, lit('1899-12-31 23:59:59.999', 'TIMESTAMP_MS')],
        [3001, 12, lit('5000-01-01 00:00:00', 'TIMESTAMP_MS')], [3011, 13, lit('1000-01-01 00:00:00', 'TIMESTAMP_MS')]) },
    { name: 'day', sqlType: 'DATE', type: 'date', min: '1900-01-01', max: '2262-04-11',
      value: planted(`DATE '1900-01-01' + CAST(${rnd(19, 132_000)} AS INTEGER)`, [1993, 14, "DATE '1899-12-31'"], [1999, 15, "DATE '2262-04-12'"], [3001, 16, "DATE '5000-06-01'"], [3011, 17, "DATE '1000-01-01'"], [83, 18, NULL]) },
    { name: 'score', sqlType: 'DOUBLE', type: 'float64', min: '0', max: '1000000',
      value: planted(`${rnd(20, 1_000_000_000)} / 1000.0`, [1993, 19, "'nan'::DOUBLE"], [1999, 20, "'inf'::DOUBLE"], [2003, 21, "'-inf'::DOUBLE"], [2011, 22, '1000000.000001'], [2017, 23, '-0.000001'], [79, 24, NULL]) },
    { name: 'ratio', sqlType: 'DOUBLE', type: 'float64', max: '1',
      value: planted(`${rnd(21, 1_000_000_000)} / 1e9`, [1993, 25, "'nan'::DOUBLE"], [1999, 26, "'inf'::DOUBLE"], [2003, 27, "'-inf'::DOUBLE"]) },
  ],
};

/** UINTEGER over its whole range, 300k distinct values: v2 pages hold it as DELTA_BINARY_PACKED. */
const uintegerTable: HeldoutTable = {
  label: 'uinteger-300k', rows: 300_000, columns: [
    { name: 'u32', sqlType: 'UINTEGER', type: 'int64', required: true, max: '3000000000', value: planted(rnd(22, 4_294_967_296), [10007, 1, NULL]) },
  ],
};

const DUCKDB = [duckdbParquet('v1', 'PARQUET_VERSION v1'), duckdbParquet('v2', 'PARQUET_VERSION v2')];

const v2 = (w: { id: string }) => (w.id.includes('v2') ? [usesPageType('DATA_PAGE_V2')] : []);

export const HELDOUT_PARQUET_CASES: readonly HeldoutCase[] = [
  ...PARQUETJS.map((w) => heldoutCase('INT64 up to 9e12 given as text (string-ordered statistics), UTF8, optional columns, several row groups', parquetjsIntegers, w,
    [rowGroupsAtLeast(3), statisticsHideMax('id', 'BIGINT'), statisticsMinAboveMax('qty', 'BIGINT'), ...v2(w)])),
  ...PARQUETJS.map((w) => heldoutCase('TIMESTAMP_MILLIS and TIMESTAMP_MICROS in 2027 against not_in_future, 1 µs before min', parquetjsTimestamps, w,
    [statisticsHideMax('ts_ms', 'TIMESTAMPTZ'), statisticsHideMax('ts_us', 'TIMESTAMPTZ'), statisticsMinAboveMax('ts_ms', 'TIMESTAMPTZ'), ...v2(w)])),
  ...ARROW_RS.map((w) => heldoutCase('Dictionary(UInt32, LargeUtf8), LargeUtf8, Int64 at ±2^53+1, UInt32 past 2^31, Decimal128(38,10) 1e-10 past bounds', arrowTable, w,
    [arrowTypes({ color: 'I{U}', key: 'U', big: 'l', u32: 'I', amount: 'd:38,10' }), usesEncoding('RLE_DICTIONARY'), ...v2(w)])),
  heldoutCase('UInt64 past 2^63 (no contract type: a type finding)', uint64Table, ARROW_RS[0]!, [arrowTypes({ u64: 'L' })]),
  // DuckDB's v2 keeps v1 page headers; what changes is the encodings.
  ...DUCKDB.map((w) => heldoutCase('DECIMAL(38,10)/(18,3) one unit past bounds, TIMESTAMP_NS/_MS 1 ns/1 ms past bounds, dates before 1970 and after 2262, NaN/±Infinity', duckdbEdges, w,
    w.id.includes('v2') ? [usesEncoding('DELTA_BINARY_PACKED'), usesEncoding('BYTE_STREAM_SPLIT')] : [])),
  ...DUCKDB.map((w) => heldoutCase('UINTEGER over its whole range, 300k distinct values, max 3e9', uintegerTable, w,
    w.id.includes('v2') ? [usesEncoding('DELTA_BINARY_PACKED'), rowGroupsAtLeast(2)] : [])),
  ...DUCKDB.map((w) => heldoutCase('UBIGINT past 2^63 (no contract type: a type finding)', uint64Table, w)),
];
