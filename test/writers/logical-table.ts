import type { ColumnTypeKind } from '../../lib/contract/column-type.js';

/**
 * Data described once, independent of any writer, so the same rows can be written by every
 * Parquet writer of the matrix and compared with what DuckDB reads back.
 *
 * Values, by contract type (null for a missing value in any nullable column):
 * - string: string; binary: Uint8Array
 * - int32, int64: number (int64 within ±2^53)
 * - float32, float64: number (NaN and ±Infinity allowed)
 * - decimal: number with at most `scale` digits after the point
 * - boolean: boolean
 * - date: epoch milliseconds at midnight UTC
 * - timestamp (UTC instant), timestamp_ntz (wall clock): epoch milliseconds
 */
export interface LogicalColumn {
  readonly name: string;
  readonly type: ColumnTypeKind;
  /** decimal only */
  readonly precision?: number;
  readonly scale?: number;
  readonly nullable: boolean;
  readonly values: readonly unknown[];
}

export interface LogicalTable {
  readonly columns: readonly LogicalColumn[];
  readonly rows: number;
}

/** One writer with one set of its settings ("knobs"). */
export interface WriterVariant {
  /** Stable, filename-safe id, e.g. `duckdb-zstd` or `arrow-rs-v2-nodict`. */
  readonly id: string;
  /** Which independent implementation: duckdb, arrow-rs, polars, hyparquet-writer. */
  readonly writer: string;
  /** The settings in words, for test names and the note. */
  readonly settings: string;
  /** Writes `table` as one Parquet file at `path`. */
  write(table: LogicalTable, path: string): Promise<void>;
}
