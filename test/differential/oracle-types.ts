import type { ColumnType } from '../../lib/contract/column-type.js';

/** What a stored column is, in contract terms, as DuckDB describes it; `other` satisfies nothing. */
export type StoredType = ColumnType | { readonly kind: 'other'; readonly text: string };

/**
 * DuckDB's type name for a Parquet column, mapped to a contract type. Timestamps are told apart by
 * `utc`, taken from the Parquet schema (DuckDB reads INT96 and legacy TIMESTAMP_* as plain TIMESTAMP,
 * but the Parquet spec defines both as UTC-adjusted instants).
 */
export function storedTypeOf(duckdbType: string, utc: boolean): StoredType {
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(duckdbType);
  if (decimal) return { kind: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]) };
  if (duckdbType.startsWith('TIMESTAMP')) return { kind: utc || duckdbType === 'TIMESTAMP WITH TIME ZONE' ? 'timestamp' : 'timestamp_ntz' };
  const simple: Record<string, ColumnType['kind']> = {
    VARCHAR: 'string', UUID: 'string', BLOB: 'binary', BOOLEAN: 'boolean', DATE: 'date', FLOAT: 'float32', DOUBLE: 'float64',
    TINYINT: 'int32', SMALLINT: 'int32', INTEGER: 'int32', UTINYINT: 'int32', USMALLINT: 'int32', UINTEGER: 'int64', BIGINT: 'int64',
  };
  const kind = simple[duckdbType];
  return kind ? ({ kind } as ColumnType) : { kind: 'other', text: duckdbType };
}

/**
 * Whether stored values read as the contract type without loss (README, "Parquet types"): every
 * int32 is an int64, a float64 and a decimal with ten integer digits; every float32 a float64;
 * a decimal fits one with at least its integer digits and scale; text is bytes.
 */
export function satisfies(contract: ColumnType, stored: StoredType): boolean {
  if (stored.kind === 'other') return false;
  if (contract.kind === stored.kind && contract.kind !== 'decimal') return true;
  switch (contract.kind) {
    case 'int64': return stored.kind === 'int32';
    case 'float64': return stored.kind === 'float32' || stored.kind === 'int32';
    case 'binary': return stored.kind === 'string';
    case 'decimal': return integerDigits(stored) <= contract.precision - contract.scale && scaleOf(stored) <= contract.scale;
    default: return false;
  }
}

function integerDigits(stored: ColumnType): number {
  if (stored.kind === 'int32') return 10;
  if (stored.kind === 'int64') return 19;
  return stored.kind === 'decimal' ? stored.precision - stored.scale : Infinity;
}

function scaleOf(stored: ColumnType): number {
  if (stored.kind === 'int32' || stored.kind === 'int64') return 0;
  return stored.kind === 'decimal' ? stored.scale : Infinity;
}
