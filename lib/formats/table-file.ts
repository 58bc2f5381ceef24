import type { ColumnVector } from './column-vector.js';
import type { ColumnType } from '../contract/column-type.js';

/**
 * What a format reader offers the check engine: a schema and batches of column values. Readers
 * for Parquet, CSV and JSON Lines implement it; the engine never knows which one it has.
 */
export interface TableFile {
  /** Reads what the file says about its columns. Throws UnreadableError when it cannot. */
  schema(): Promise<FileSchema>;
  /**
   * Yields the named columns in row order, one batch at a time, so memory stays bounded by the
   * batch. Columns the file lacks are absent from the batch. Throws UnreadableError when the
   * bytes stop making sense part way; batches already yielded stay valid.
   */
  batches(columns: readonly string[], options?: BatchOptions): AsyncIterable<ColumnBatch>;
  /**
   * Files with random access (Parquet): decodes only the given rows (0-based within the file),
   * one batch per row, reading as few pages as the file's indexes allow. Text readers parse the
   * `parse` columns as `batches` does.
   */
  readRows?(columns: readonly string[], rows: readonly number[], options?: Pick<BatchOptions, 'parse'>): AsyncIterable<ColumnBatch>;
}

/** What only files with row groups (Parquet) act on; other readers read `columns` whole. */
export interface BatchOptions {
  readonly select?: ColumnSelector;
  readonly groups?: GroupRange;
  /**
   * Columns the engine needs only the identity of (a one-column key with no value rules): a
   * reader may deliver them as `ColumnBatch.hashes` instead of values.
   */
  readonly hashOnly?: ReadonlySet<string>;
  /**
   * Columns no rule reads the values of, only whether a row has one (`required` alone): a reader
   * may deliver `true` for a value, null for none, without decoding the values.
   */
  readonly presenceOnly?: ReadonlySet<string>;
  /**
   * Text columns a caller only compares or hashes: a reader may deliver their values as UTF-8
   * bytes (Uint8Array) rather than decoding each into a string.
   */
  readonly rawText?: ReadonlySet<string>;
  /**
   * Text columns a caller checks on their UTF-8 bytes: a reader may deliver them as a ByteVector
   * in `ColumnBatch.vectors` rather than decode each value into a string.
   */
  readonly textBytes?: ReadonlySet<string>;
  /**
   * For a caller that reads a few rows of `columns` only: `rows(rowStart, rowCount)` marks them
   * with 1, and a reader may leave the values of other rows undefined rather than make them.
   */
  readonly pick?: { readonly columns: ReadonlySet<string>; rows(rowStart: number, rowCount: number): Uint8Array };
  /**
   * Text files: each requested column's contract type. A reader may then deliver a column parsed
   * (listed in `ColumnBatch.parsed`) instead of as text, sparing a string per value.
   */
  readonly parse?: ReadonlyMap<string, ColumnType>;
  /**
   * CSV and JSON Lines: only the records of this byte range (csv-ranges.ts and jsonl-ranges.ts
   * cut a file into ranges), rows and lines numbered as in the whole file, so the file's pieces
   * can be checked apart.
   */
  readonly textRange?: TextRange;
  /**
   * The caller reads ColumnBatch.vectors: a reader may then deliver a column as typed memory
   * (see column-vector.ts) instead of in `columns`. Unset, every column comes in `columns`.
   */
  readonly vectors?: boolean;
}

/**
 * For files with row groups (Parquet): picks, per row group and from what its footer proves,
 * the columns worth decoding. Readers without row groups ignore it and read `columns`.
 */
export type ColumnSelector = (group: RowGroupInfo) => readonly string[] | Promise<readonly string[]>;

/** Row groups [from, to) of a file: a slice of it that can be checked on its own. */
export interface GroupRange {
  readonly from: number;
  readonly to: number;
}

export interface RowGroupInfo {
  readonly index: number;
  readonly rowStart: number;
  readonly rowCount: number;
  /** Footer statistics per column; absent for a column whose chunk has none. */
  readonly statistics: ReadonlyMap<string, ChunkStatistics>;
  /**
   * Every distinct value a column's chunk can hold, read from its dictionary page (one small
   * read), when the footer proves each data page is dictionary-encoded; undefined otherwise.
   */
  dictionary?(column: string): Promise<readonly unknown[] | undefined>;
}

/**
 * What a column chunk's footer says. `min`/`max` are in the checked representation (numbers,
 * bigint, epoch ms) and bound the values: exact unless the writer says otherwise.
 */
export interface ChunkStatistics {
  readonly nullCount?: number;
  readonly min?: unknown;
  readonly max?: unknown;
  readonly maxExact: boolean;
}

/**
 * `typed`: the file declares a type per column (Parquet); values arrive decoded.
 * `text`: every value is a string or null (CSV); the engine parses them by the contract's types.
 * `dynamic`: values are JSON values and columns are discovered row by row (JSON Lines).
 */
export type FileSchema =
  | { readonly kind: 'typed'; readonly columns: readonly TypedColumn[]; readonly groupRows: readonly number[] }
  | { readonly kind: 'text'; readonly columns: readonly string[] }
  | { readonly kind: 'dynamic' };

export interface TypedColumn {
  readonly name: string;
  /** The contract type the stored values are, or `unsupported` with what the file holds. */
  readonly type: ColumnType | { readonly kind: 'unsupported'; readonly detail: string };
  /** How the file describes the column, for messages, e.g. `INT64 TIMESTAMP(MICROS, UTC)`. */
  readonly physical: string;
}

export interface ColumnBatch {
  /** The row group this batch is (Parquet only): the columns absent were not selected. */
  readonly group?: RowGroupInfo;
  /** Row index within the file of the first row of this batch (0-based). */
  readonly rowStart: number;
  readonly rowCount: number;
  /**
   * Values per requested column. Typed files: decoded values with timestamps and dates as epoch
   * milliseconds, INT64 as bigint, null for null. Text files: string, or null for an empty
   * unquoted field. Dynamic files: the JSON value, or undefined where the key is absent.
   */
  readonly columns: ReadonlyMap<string, ArrayLike<unknown>>;
  /**
   * Columns asked for as `hashOnly` that came as one key hash per row (see checks/key-hash.ts),
   * NaN for null, instead of in `columns`.
   */
  readonly hashes?: ReadonlyMap<string, Float64Array>;
  /**
   * Columns delivered as typed memory (see column-vector.ts) instead of in `columns`: a reader
   * may deliver any requested column so, and the engine reads a column from here first.
   */
  readonly vectors?: ReadonlyMap<string, ColumnVector>;
  /**
   * Columns asked for with a type in `parse` whose values came parsed: each value is what the
   * contract's rules for the file's values (checks/coerce-value.ts) make of it, null for null,
   * and their INVALID where they reject it; those are listed here, in row order, as the file has them.
   */
  readonly parsed?: ReadonlyMap<string, readonly UnparsedField[]>;
  /**
   * Rows within this batch that could not be read as a row (a JSON line that is no object, a
   * ragged CSV row). Their entries in `columns` are undefined and the engine skips them.
   */
  readonly unreadableRows?: readonly UnreadableRow[];
  /** Dynamic files only: every key seen in this batch, for the extra-column check. */
  readonly keys?: ReadonlySet<string>;
}

/** A value a text reader could not parse as its column's type: a `type` violation. */
export interface UnparsedField {
  /** The row's index within the batch. */
  readonly index: number;
  /** What the file holds there: a CSV field's text, a JSON Lines value. */
  readonly raw: unknown;
}

export interface UnreadableRow {
  /** 0-based row index within the file (the data row, not counting a CSV header). */
  readonly row: number;
  /** 1-based line in the file where the row starts. */
  readonly line: number;
  readonly reason: string;
}

/** The file as a whole cannot be read (bad magic, truncated footer, corrupt page). */
export class UnreadableError extends Error {
  override readonly name = 'UnreadableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Bytes [start, end) of a CSV or JSON Lines file that hold whole records, with where they stand in the file:
 * what a checker of one piece of the file (a worker) needs to read it on its own and number its
 * rows and lines as one pass over the whole file would (see BatchOptions.textRange).
 */
export interface TextRange {
  readonly start: number;
  readonly end: number;
  /** The 0-based data row (the header not counted) of the range's first record. */
  readonly firstRow: number;
  /** The 1-based line the range's first record starts on. */
  readonly firstLine: number;
}
