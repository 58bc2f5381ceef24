import { readFileSync, writeFileSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import pl from 'nodejs-polars';
import { parquetWriteBuffer, type ColumnSource, type SchemaElement } from 'hyparquet-writer';
import { Compression, Encoding, readParquet, writeParquet, WriterPropertiesBuilder, WriterVersion } from 'parquet-wasm/node';
import { queryRows, sqlString } from '../writers/duckdb-session.js';

/**
 * Integer columns of every width and sign at their edges, written by each writer that can write
 * them, for the reader's tests of widths and signs (see parquet-integer-edges.test.ts). The
 * source is a DuckDB table: each type's extremes and the values about 2^7, 2^15, 2^31, 2^63 first,
 * largest first,
 * then values spread over the whole range (so DuckDB's v2 pages choose DELTA_BINARY_PACKED), some
 * repeated, some null.
 */
export interface IntegerColumn {
  readonly name: string;
  readonly duckdb: string;
  readonly edges: readonly string[];
  /** The range spread over: `hash % span + low`. */
  readonly low: string;
  readonly span: string;
}

const U64_MAX = '18446744073709551615';
const I64_MIN = '-9223372036854775808';
const I64_MAX = '9223372036854775807';

export const INTEGER_COLUMNS: readonly IntegerColumn[] = [
  { name: 'u8', duckdb: 'UTINYINT', edges: ['0', '1', '127', '128', '254', '255'], low: '0', span: '256' },
  { name: 'u16', duckdb: 'USMALLINT', edges: ['0', '1', '32767', '32768', '65534', '65535'], low: '0', span: '65536' },
  { name: 'u32', duckdb: 'UINTEGER', edges: ['0', '1', '2147483647', '2147483648', '4294967294', '4294967295'], low: '0', span: '4294967296' },
  { name: 'u64', duckdb: 'UBIGINT', edges: ['0', '1', I64_MAX, '9223372036854775808', '18446744073709551614', U64_MAX], low: '0', span: '18446744073709551616' },
  { name: 'i8', duckdb: 'TINYINT', edges: ['-128', '-127', '-1', '0', '126', '127'], low: '-128', span: '256' },
  { name: 'i16', duckdb: 'SMALLINT', edges: ['-32768', '-32767', '-1', '0', '32766', '32767'], low: '-32768', span: '65536' },
  { name: 'i32', duckdb: 'INTEGER', edges: ['-2147483648', '-2147483647', '-1', '0', '2147483646', '2147483647'], low: '-2147483648', span: '4294967296' },
  { name: 'i64', duckdb: 'BIGINT', edges: [I64_MIN, '-9223372036854775807', '-1', '0', '9223372036854775806', I64_MAX], low: I64_MIN, span: '18446744073709551616' },
];

/** A SELECT of `rows` rows: `id`, then every column; every 97th row null, every 10th repeats the row before. */
export function edgeTableSql(rows: number): string {
  const columns = INTEGER_COLUMNS.map((c, salt) => {
    // Largest first: a page's first value is the one a narrow decoder misreads.
    const edges = c.edges.toReversed().map((e, i) => `WHEN ${i} THEN ${e}::HUGEINT`).join(' ');
    const spread = `(hash(CASE WHEN i % 10 = 0 THEN i - 1 ELSE i END, ${salt})::HUGEINT % ${c.span}::HUGEINT + ${c.low}::HUGEINT)`;
    return `(CASE WHEN i % 97 = 50 THEN NULL WHEN i < ${c.edges.length} THEN CASE i ${edges} END ELSE ${spread} END)::${c.duckdb} AS ${c.name}`;
  });
  return `SELECT i::INTEGER AS id, ${columns.join(', ')} FROM range(${rows}) t(i)`;
}

/** One way of writing the edge table to a Parquet file, from a DuckDB-written staging file. */
export interface EdgeWriter {
  readonly id: string;
  write(connection: DuckDBConnection, staging: string, path: string): Promise<void>;
}

const duckdbCopy = (id: string, options: string): EdgeWriter => ({
  id: `duckdb-${id}`,
  write: async (c, staging, path) => void await c.run(`COPY (SELECT * FROM ${sqlString(staging)} ORDER BY id) TO ${sqlString(path)} (FORMAT parquet, ${options})`),
});

const arrowRs = (id: string, configure: (b: WriterPropertiesBuilder) => WriterPropertiesBuilder): EdgeWriter => ({
  id: `arrow-rs-${id}`,
  write: async (_c, staging, path) => writeFileSync(path, writeParquet(readParquet(readFileSync(staging)), configure(new WriterPropertiesBuilder()).build())),
});

/** hyparquet-writer, given each column's annotation as DuckDB wrote it and its values as DuckDB reads them. */
const hyparquet = (id: string, encoding: ColumnSource['encoding']): EdgeWriter => ({
  id: `hyparquet-${id}`,
  write: async (c, staging, path) => {
    const rows = (await c.runAndReadAll(`SELECT * FROM ${sqlString(staging)} ORDER BY id`)).getRowObjectsJS();
    const elements = INTEGER_COLUMNS.map((column) => hyparquetElement(column));
    const columnData: ColumnSource[] = INTEGER_COLUMNS.map((column, i) => ({
      name: column.name,
      data: rows.map((row) => hyparquetValue(row[column.name], elements[i]!.type ?? 'INT32')),
      nullable: true,
      ...(encoding ? { encoding } : {}),
    }));
    const schema = [{ name: 'root', num_children: elements.length }, ...elements];
    writeFileSync(path, new Uint8Array(parquetWriteBuffer({ schema, columnData, codec: 'UNCOMPRESSED' })));
  },
});

/**
 * The legacy annotation only: hyparquet-writer 0.17 writes a LogicalType INTEGER's bitWidth as a
 * thrift i32 where the format has an i8, and DuckDB then refuses the whole footer.
 */
function hyparquetElement(column: IntegerColumn): SchemaElement {
  const converted = `${column.name.startsWith('i') ? 'INT' : 'UINT'}_${column.name.slice(1)}` as SchemaElement['converted_type'];
  return { name: column.name, type: column.name.endsWith('64') ? 'INT64' : 'INT32', repetition_type: 'OPTIONAL', converted_type: converted };
}

function hyparquetValue(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  return type === 'INT64' ? BigInt(value as bigint | number) : Number(value);
}

/** Every writer of the edge table: DuckDB's page versions, arrow-rs's encodings, polars, hyparquet-writer's encodings. */
export const EDGE_WRITERS: readonly EdgeWriter[] = [
  duckdbCopy('v1', 'PARQUET_VERSION v1'),
  duckdbCopy('v2', 'PARQUET_VERSION v2'),
  // Small groups are decoded whole by the reader, large ones in slices: both meet delta pages.
  duckdbCopy('v2-small-groups', 'PARQUET_VERSION v2, ROW_GROUP_SIZE 2048'),
  duckdbCopy('v2-zstd-small-pages', 'PARQUET_VERSION v2, COMPRESSION zstd, ROW_GROUP_SIZE 2048, DICTIONARY_SIZE_LIMIT 1'),
  arrowRs('default', (b) => b),
  arrowRs('plain', (b) => b.setDictionaryEnabled(false)),
  arrowRs('v2-delta', (b) => b.setWriterVersion(WriterVersion.V2).setDictionaryEnabled(false).setEncoding(Encoding.DELTA_BINARY_PACKED).setCompression(Compression.SNAPPY)),
  arrowRs('v1-delta-small-groups', (b) => b.setDictionaryEnabled(false).setEncoding(Encoding.DELTA_BINARY_PACKED).setMaxRowGroupSize(2000)),
  {
    id: 'polars',
    write: async (_c, staging, path) => pl.readParquet(staging).writeParquet(path),
  },
  hyparquet('plain', 'PLAIN'),
  hyparquet('delta', 'DELTA_BINARY_PACKED'),
  hyparquet('dictionary', 'RLE_DICTIONARY'),
];

/** What DuckDB reads from a file, per column: min, max, and the rows outside [low, high]. */
export interface ColumnOracle {
  readonly min: string | null;
  readonly max: string | null;
  readonly below: number;
  readonly above: number;
  /** Distinct values occurring more than once. */
  readonly repeated: number;
}

export async function duckdbOracle(c: DuckDBConnection, path: string, column: string, low: string, high: string): Promise<ColumnOracle> {
  const file = sqlString(path);
  const [row] = await queryRows(c, `SELECT min(${column})::VARCHAR AS min, max(${column})::VARCHAR AS max,
    count(*) FILTER (WHERE ${column} < ${low}::HUGEINT) AS below, count(*) FILTER (WHERE ${column} > ${high}::HUGEINT) AS above,
    (SELECT count(*) FROM (SELECT ${column} FROM ${file} WHERE ${column} IS NOT NULL GROUP BY ${column} HAVING count(*) > 1)) AS repeated
    FROM ${file}`);
  return row as unknown as ColumnOracle;
}
