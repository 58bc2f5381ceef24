import { ARROW_RS_VARIANTS } from './arrow-rs-writer.js';
import { DUCKDB_VARIANTS } from './duckdb-writer.js';
import { HYPARQUET_VARIANTS } from './hyparquet-writer.js';
import type { WriterVariant } from './logical-table.js';
import { POLARS_VARIANTS } from './polars-writer.js';

export type { LogicalColumn, LogicalTable, WriterVariant } from './logical-table.js';
export { CACHE_DIR, cachedPath, tableDigest, writeCached } from './writer-cache.js';
export { duckdbType, loadLogicalTable } from './duckdb-table.js';
export { openDuckDB, queryRows, sqlIdent, sqlString, withDuckDB } from './duckdb-session.js';

/**
 * Every writer and setting the matrix covers; ids are unique and safe in file names.
 * `variant.write(table, path)` writes any LogicalTable (any mix of contract types, any nulls, no
 * rows) as one Parquet file, creating the folder and replacing the file whole. A table must hold: well-formed Unicode strings, integral epoch ms for dates and
 * timestamps, int64 within ±2^53. A table object is treated as immutable (arrow-rs and polars
 * share one staging file per object).
 */
export const PARQUET_WRITERS: readonly WriterVariant[] = [...DUCKDB_VARIANTS, ...ARROW_RS_VARIANTS, ...POLARS_VARIANTS, ...HYPARQUET_VARIANTS];

/** The variants of one writer (`duckdb`, `arrow-rs`, `polars`, `hyparquet-writer`). */
export function writerVariants(writer: string): readonly WriterVariant[] {
  return PARQUET_WRITERS.filter((variant) => variant.writer === writer);
}

export function writerVariant(id: string): WriterVariant {
  const found = PARQUET_WRITERS.find((variant) => variant.id === id);
  if (!found) throw new Error(`no writer variant ${id}; known: ${PARQUET_WRITERS.map((v) => v.id).join(', ')}`);
  return found;
}
