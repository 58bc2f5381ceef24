import { readFile, writeFile } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer';
import pl from 'nodejs-polars';
import { Compression, readParquet, writeParquet, WriterPropertiesBuilder, WriterVersion } from 'parquet-wasm/node';
import { sqlString } from '../writers/index.js';

export const EXACT_ROWS = 5000;

/**
 * Values a writer matrix of JS numbers cannot hold, as DuckDB SQL over `i`: int64 and decimal(38,9)
 * far past 2^53, timestamps to the micro- and nanosecond, NaN and -0, '' beside null, bytes that
 * are not UTF-8, unsigned integers at their tops, and nested lists and structs with nulls at
 * every level (a null list, an empty one, a null element; a null struct, a null field).
 */
export const EXACT_COLUMNS: Readonly<Record<string, string>> = {
  id: 'i::INTEGER',
  i64: 'CASE i % 3 WHEN 0 THEN 9223372036854775807 - i WHEN 1 THEN -9223372036854775808 + i ELSE 9007199254740993 + i END',
  i64_opt: 'CASE WHEN i % 5 = 0 THEN NULL ELSE 9007199254740993 * (i % 7) END',
  dec: "(CASE i % 3 WHEN 0 THEN '12345678901234567890123456789.123456789' WHEN 1 THEN '-99999999999999999999999999999.999999999' ELSE NULL END)::DECIMAL(38,9)",
  dec_small: "((i % 2000) - 1000)::DECIMAL(9,3) / 7",
  ts: 'make_timestamp(1700000000000000 + i * 1000001)',
  ts_tz: 'CASE WHEN i % 4 = 0 THEN NULL ELSE make_timestamp(-62135596800000000 + i * 999999937)::TIMESTAMPTZ END',
  ts_ns: 'make_timestamp_ns(1700000000000000001 + i * 1000000007)',
  day: "DATE '0001-01-01' + (i * 97)::INTEGER",
  f32: "(CASE i % 5 WHEN 0 THEN 'nan' WHEN 1 THEN '-0.0' WHEN 2 THEN 'inf' WHEN 3 THEN '1.17549435e-38' ELSE NULL END)::FLOAT",
  f64: "(CASE i % 5 WHEN 0 THEN 'nan' WHEN 1 THEN '-0.0' WHEN 2 THEN '-inf' WHEN 3 THEN '5e-324' ELSE NULL END)::DOUBLE",
  flag: 'CASE i % 3 WHEN 0 THEN NULL ELSE i % 2 = 0 END',
  s: "CASE i % 4 WHEN 0 THEN '' WHEN 1 THEN NULL WHEN 2 THEN '🙂 ' || i ELSE repeat('x', i % 50) END",
  b: "CASE i % 3 WHEN 0 THEN '\\xFF\\xFE\\x00'::BLOB WHEN 1 THEN ''::BLOB ELSE NULL END",
  u32: '(4294967295 - i)::UINTEGER',
  u64: '(18446744073709551615 - i)::UBIGINT',
  u8: '(i % 256)::UTINYINT',
  uuid: "CASE WHEN i % 2 = 0 THEN '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'::UUID ELSE md5(i::VARCHAR)::UUID END",
  clock: 'make_time(1, 2, (i % 60000) / 1000.0)',
  doc: "('{\"a\": ' || i || ',  \"b\":[1,2]}')::JSON",
  lst: 'CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN [] WHEN 2 THEN [NULL, i] ELSE [9223372036854775807] END::BIGINT[]',
  st: "CASE i % 3 WHEN 0 THEN NULL WHEN 1 THEN {'x': NULL, 'y': 'z'} ELSE {'x': (i / 4)::DECIMAL(10,2), 'y': NULL} END",
  deep: "CASE i % 2 WHEN 0 THEN [{'q': [1, NULL], 'r': 'a'}, NULL] ELSE NULL END",
  kind: "(['a','b','c'])[1 + i % 3]::ENUM('a','b','c')",
  span: 'INTERVAL 1 DAY + INTERVAL (i) MICROSECOND',
};

/** v2 pages (DuckDB, arrow-rs) put UINTEGER in DELTA_BINARY_PACKED, which the rewrite refuses (parquet-plan.ts). */
const { u32: _u32, ...WITHOUT_U32 } = EXACT_COLUMNS;

/** One writer of the exact table: DuckDB's own, or another engine rewriting DuckDB's file. */
export interface ExactWriter {
  readonly id: string;
  write(connection: DuckDBConnection, path: string, scratch: string): Promise<void>;
}

function select(columns: Readonly<Record<string, string>>): string {
  return `SELECT ${Object.entries(columns).map(([name, sql]) => `${sql} AS ${name}`).join(', ')} FROM range(0, ${EXACT_ROWS}) t(i)`;
}

function duckdb(id: string, options: string, columns = EXACT_COLUMNS): ExactWriter {
  return { id: `duckdb-${id}`, write: async (c, path) => {
    await c.run(`COPY (${select(columns)}) TO ${sqlString(path)} (FORMAT parquet, ${options})`);
  } };
}


function arrowRs(id: string, configure: (b: WriterPropertiesBuilder) => WriterPropertiesBuilder, columns = EXACT_COLUMNS): ExactWriter {
  return {
    id: `arrow-rs-${id}`,
    write: async (c, path, scratch) => {
      await c.run(`COPY (${select(columns)}) TO ${sqlString(scratch)} (FORMAT parquet)`);
      await writeFile(path, writeParquet(readParquet(await readFile(scratch)), configure(new WriterPropertiesBuilder()).build()));
    },
  };
}

/** polars cannot hold DuckDB's INTERVAL; the rest goes through a polars DataFrame. */
function polars(id: string, groups?: number): ExactWriter {
  const { span: _, ...columns } = EXACT_COLUMNS;
  return {
    id: `polars-${id}`,
    write: async (c, path, scratch) => {
      await c.run(`COPY (${select(columns)}) TO ${sqlString(scratch)} (FORMAT parquet)`);
      if (groups === undefined) pl.readParquet(scratch).writeParquet(path);
      else await pl.scanParquet(scratch).sinkParquet(path, { compression: 'snappy', statistics: true, rowGroupSize: groups, maintainOrder: true }).collect();
    },
  };
}

export const EXACT_WRITERS: readonly ExactWriter[] = [
  duckdb('2048-row-groups', 'ROW_GROUP_SIZE 2048'),
  duckdb('v2-zstd', 'PARQUET_VERSION v2, COMPRESSION zstd, ROW_GROUP_SIZE 2048', WITHOUT_U32),
  duckdb('gzip-nodict', 'COMPRESSION gzip, DICTIONARY_SIZE_LIMIT 0, ROW_GROUP_SIZE 2048'),
  arrowRs('snappy-1000-rows', (b) => b.setCompression(Compression.SNAPPY).setMaxRowGroupSize(1000)),
  arrowRs('v2-nodict-brotli', (b) => b.setWriterVersion(WriterVersion.V2).setDictionaryEnabled(false).setCompression(Compression.BROTLI).setMaxRowGroupSize(2000), WITHOUT_U32),
  polars('default'),
  polars('1000-row-groups', 1000),
  { id: 'hyparquet-writer', write: (_, path) => writeFile(path, new Uint8Array(hyparquetExact())) },
];

const T0 = 1_700_000_000_000_000n;

/** hyparquet-writer given the stored values directly (it has no SQL to cast from). */
function hyparquetExact(): ArrayBuffer {
  const n = EXACT_ROWS;
  const rows = Array.from({ length: n }, (_, i) => i);
  const opt = (name: string, type: 'INT64' | 'BYTE_ARRAY' | 'DOUBLE' | 'FIXED_LEN_BYTE_ARRAY' | 'INT32', extra: object = {}) => ({ name, type, repetition_type: 'OPTIONAL' as const, ...extra });
  const schema = [
    { name: 'root', num_children: 8 },
    opt('i64', 'INT64'),
    opt('dec', 'FIXED_LEN_BYTE_ARRAY', { type_length: 16, converted_type: 'DECIMAL', precision: 38, scale: 9, logical_type: { type: 'DECIMAL', precision: 38, scale: 9 } }),
    opt('ts', 'INT64', { logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } }),
    opt('ts_ns', 'INT64', { logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'NANOS' } }),
    opt('f64', 'DOUBLE'),
    opt('s', 'BYTE_ARRAY', { converted_type: 'UTF8', logical_type: { type: 'STRING' } }),
    opt('b', 'BYTE_ARRAY'),
    // No LogicalType INTEGER: hyparquet-writer writes its bit width as an i32, which DuckDB refuses (parquet-finish.ts).
    opt('u32', 'INT32', { converted_type: 'UINT_32' }),
  ] as const;
  const columnData: ColumnSource[] = [
    { name: 'i64', data: rows.map((i) => (i % 4 === 0 ? null : 9223372036854775807n - BigInt(i))) },
    { name: 'dec', data: rows.map((i) => (i % 3 === 0 ? null : (i % 2 ? -1n : 1n) * (99999999999999999999999999999999999999n - BigInt(i)))) },
    { name: 'ts', data: rows.map((i) => T0 + BigInt(i) * 1_000_001n) },
    { name: 'ts_ns', data: rows.map((i) => T0 * 1000n + BigInt(i) * 1_000_000_007n) },
    { name: 'f64', data: rows.map((i) => [NaN, -0, Infinity, 5e-324, null][i % 5]!) },
    { name: 's', data: rows.map((i) => ['', null, `🙂 ${i}`][i % 3]!) },
    { name: 'b', data: rows.map((i) => [Uint8Array.of(0xff, 0xfe, 0), new Uint8Array(0), null][i % 3]!) },
    { name: 'u32', data: rows.map((i) => 4294967295 - i) },
  ];
  return parquetWriteBuffer({ schema: schema as never, columnData, rowGroupSize: 1500 });
}
