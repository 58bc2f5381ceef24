import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnType } from '../../lib/contract/column-type.js';
import { queryRows, sqlString } from '../writers/index.js';

/** A top-level column as DuckDB reads it, with the one fact DuckDB's type hides. */
export interface StoredColumn {
  readonly name: string;
  /** DuckDB's type name, e.g. `DECIMAL(12,2)`, `TIMESTAMP WITH TIME ZONE`, `STRUCT(...)`. */
  readonly duckType: string;
  /** The Parquet element says isAdjustedToUTC=false (a wall clock), per its TIMESTAMP logical type. */
  readonly wallClock: boolean;
}

export async function storedColumns(connection: DuckDBConnection, file: string): Promise<StoredColumn[]> {
  const described = await queryRows(connection, `DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`);
  const elements = await topLevelElements(connection, file);
  return described.map((row) => {
    const name = String(row.column_name);
    const logical = String(elements.get(name)?.logical_type ?? '');
    return { name, duckType: String(row.column_type), wallClock: logical.includes('isAdjustedToUTC=0') };
  });
}

/** The schema's direct children of the root, by name: the flattened tree walked by child counts. */
async function topLevelElements(connection: DuckDBConnection, file: string): Promise<Map<string, Record<string, unknown>>> {
  const rows = await queryRows(connection, `SELECT name, logical_type, num_children FROM parquet_schema(${sqlString(file)})`);
  const top = new Map<string, Record<string, unknown>>();
  let index = 1;
  const skipSubtree = (at: number): number => {
    const children = Number(rows[at]?.num_children ?? 0);
    let next = at + 1;
    for (let c = 0; c < children; c++) next = skipSubtree(next);
    return next;
  };
  while (index < rows.length) {
    top.set(String(rows[index]!.name), rows[index]!);
    index = skipSubtree(index);
  }
  return top;
}

const INT32_LIKE = ['TINYINT', 'SMALLINT', 'INTEGER', 'UTINYINT', 'USMALLINT'];

/**
 * The contract type a stored column is, by the Parquet spec as DuckDB reports it: integers of
 * up to 32 bits are int32 (unsigned 32-bit ones need int64), timestamps are UTC instants unless
 * their logical type says isAdjustedToUTC=false (legacy converted types and INT96 are instants).
 * Undefined for what a contract cannot declare: nested, unsigned 64-bit, time, interval, ...
 */
export function contractTypeOf(column: StoredColumn): ColumnType | undefined {
  const type = column.duckType;
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(type);
  if (decimal) return { kind: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]) };
  if (INT32_LIKE.includes(type)) return { kind: 'int32' };
  if (type === 'BIGINT' || type === 'UINTEGER') return { kind: 'int64' };
  if (type.startsWith('TIMESTAMP')) return { kind: column.wallClock ? 'timestamp_ntz' : 'timestamp' };
  const simple: Record<string, ColumnType['kind']> = { VARCHAR: 'string', UUID: 'string', BLOB: 'binary', FLOAT: 'float32', DOUBLE: 'float64', BOOLEAN: 'boolean', DATE: 'date' };
  const kind = simple[type];
  return kind === undefined || kind === 'decimal' ? undefined : { kind };
}

/**
 * Whether a contract type accepts a stored type without loss: integers widen to int64, int32 and
 * float32 to float64, text to binary, decimals to decimals with no fewer integer or scale
 * digits, and integers to decimals with room for all their digits.
 */
export function accepts(declared: ColumnType, stored: ColumnType): boolean {
  if (declared.kind === 'int64') return stored.kind === 'int64' || stored.kind === 'int32';
  if (declared.kind === 'float64') return ['float64', 'float32', 'int32'].includes(stored.kind);
  if (declared.kind === 'binary') return stored.kind === 'binary' || stored.kind === 'string';
  if (declared.kind !== 'decimal') return declared.kind === stored.kind;
  const room = declared.precision - declared.scale;
  if (stored.kind === 'int32') return room >= 10;
  if (stored.kind === 'int64') return room >= 19;
  return stored.kind === 'decimal' && stored.scale <= declared.scale && stored.precision - stored.scale <= room;
}
