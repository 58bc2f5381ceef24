import type { SchemaElement } from 'hyparquet-writer';

/** Columns of rows [first, end) of a generated table, as hyparquet-writer takes them. */
export type TableChunk = Record<string, unknown[]>;

/**
 * One generated table: its Parquet schema and a pure function from row numbers to values, so any
 * row group (of any file of a split partition) is generated alone and memory stays flat.
 */
export interface TableSpec {
  /** Bump when the generated values change, so cached data is not reused. */
  readonly version: string;
  readonly schema: SchemaElement[];
  /** Columns written PLAIN, dictionary off (hyparquet-writer otherwise keeps any dictionary that halves the size). */
  readonly plainColumns?: readonly string[];
  /** Rows [first, end) of a partition of `rows` rows (planted violations may depend on the total). */
  readonly chunk: (first: number, end: number, rows: number) => TableChunk;
}

/** The column names of a schema, in order (the root element excluded). */
export function columnNames(spec: TableSpec): string[] {
  return spec.schema.slice(1).map((element) => element.name);
}

/** An OPTIONAL column of the schema with its physical and logical type. */
export function optional(name: string, element: Omit<SchemaElement, 'name' | 'repetition_type'>): SchemaElement {
  return { name, repetition_type: 'OPTIONAL', ...element };
}

export const STRING = { type: 'BYTE_ARRAY', converted_type: 'UTF8' } as const;
export const INT32 = { type: 'INT32' } as const;
export const INT64 = { type: 'INT64' } as const;
export const DOUBLE = { type: 'DOUBLE' } as const;
export const BOOLEAN = { type: 'BOOLEAN' } as const;
export const DATE = { type: 'INT32', converted_type: 'DATE' } as const;
/** Values are epoch microseconds. */
export const TIMESTAMP = { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } } as const;

export function decimal(precision: number, scale: number): Omit<SchemaElement, 'name'> {
  return { type: 'INT64', converted_type: 'DECIMAL', precision, scale };
}
