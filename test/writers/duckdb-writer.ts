import type { LogicalTable, WriterVariant } from './logical-table.js';
import { sqlString, withDuckDB } from './duckdb-session.js';
import { loadLogicalTable } from './duckdb-table.js';
import { scratchPath, writeAtomically } from './write-file.js';

/**
 * Writes `table` with DuckDB's `COPY ... TO ... (FORMAT parquet, <options>)`. `options` is the
 * COPY option list after FORMAT, e.g. `COMPRESSION zstd, ROW_GROUP_SIZE 1000`.
 */
export async function writeWithDuckDB(table: LogicalTable, path: string, options: string): Promise<void> {
  await writeAtomically(path, (temp) => withDuckDB(async (connection) => {
    await loadLogicalTable(connection, table, 'logical', scratchPath('jsonl'));
    await connection.run(`COPY logical TO ${sqlString(temp)} (FORMAT parquet${options ? `, ${options}` : ''})`);
  }));
}

function duckdbVariant(id: string, settings: string, options: string): WriterVariant {
  return { id: `duckdb-${id}`, writer: 'duckdb', settings, write: (table, path) => writeWithDuckDB(table, path, options) };
}

/**
 * DuckDB 1.5.6 and its knobs. ROW_GROUP_SIZE is rounded up to DuckDB's vector size (2048 rows),
 * so "small" row groups are 2048 rows; DICTIONARY_SIZE_LIMIT 0 turns dictionaries off for every
 * column (a limit of 1 byte still dictionary-encodes a column with a single distinct value).
 */
export const DUCKDB_VARIANTS: readonly WriterVariant[] = [
  duckdbVariant('default', 'defaults (snappy, v1 pages, dictionary, 122880-row groups)', ''),
  // `lz4` writes LZ4_RAW (as `lz4_raw` does: the same bytes, so one variant); brotli is slow to write but cached.
  ...['zstd', 'gzip', 'uncompressed', 'lz4', 'brotli'].map((codec) => duckdbVariant(codec, `COMPRESSION ${codec}`, `COMPRESSION ${codec}`)),
  duckdbVariant('small-groups', 'ROW_GROUP_SIZE 1000 (2048-row groups)', 'ROW_GROUP_SIZE 1000'),
  duckdbVariant('one-group', 'ROW_GROUP_SIZE 10000000 (one row group)', 'ROW_GROUP_SIZE 10000000'),
  duckdbVariant('v2', 'PARQUET_VERSION v2 (v2 pages, delta and byte-stream-split encodings)', 'PARQUET_VERSION v2'),
  duckdbVariant('nodict', 'DICTIONARY_SIZE_LIMIT 0 (no dictionaries)', 'DICTIONARY_SIZE_LIMIT 0'),
  duckdbVariant('v2-nodict', 'PARQUET_VERSION v2, DICTIONARY_SIZE_LIMIT 0', 'PARQUET_VERSION v2, DICTIONARY_SIZE_LIMIT 0'),
  duckdbVariant('v2-zstd-small-groups', 'PARQUET_VERSION v2, COMPRESSION zstd, ROW_GROUP_SIZE 1000', 'PARQUET_VERSION v2, COMPRESSION zstd, ROW_GROUP_SIZE 1000'),
];
