import type { ColumnType } from '../../lib/contract/column-type.js';
import type { DataFormat } from '../../lib/contract/model.js';
import { mustHaveValue, type SpecContract, type SpecColumn } from './contract-spec.js';
import { sqlString } from './duckdb-session.js';

/**
 * One file as the oracle sees it: its SQL source, the column names it carries, and per contract
 * column either why it cannot be checked or three SQL expressions over the source's row —
 * is null, is not a value of the type (text formats), and the value in the type's DuckDB type.
 */
export interface FileView {
  readonly from: string;
  readonly names: readonly string[];
  readonly columns: ReadonlyMap<string, ColumnAccess | 'missing' | 'mistyped'>;
}

export interface ColumnAccess {
  readonly isNull: string;
  readonly isInvalid: string;
  readonly value: string;
}

/**
 * README, "Columns a file lacks": a column the file does not have reads as nulls in every row
 * (the oracle's contracts have no defaults), unless every row must hold a value and `required`
 * is an error: then it is `missing_column`.
 */
export function lackingColumn(contract: SpecContract, column: SpecColumn): ColumnAccess | 'missing' {
  const requiredWarns = !contract.grain.includes(column.name) && column.severity !== undefined && ('all' in column.severity || column.severity.rules.required === 'warn');
  return mustHaveValue(contract, column) && !requiredWarns ? 'missing' : { isNull: 'true', isInvalid: 'false', value: 'NULL' };
}

export function sourceFor(format: DataFormat, path: string): string {
  switch (format) {
    case 'parquet': return `read_parquet(${sqlString(path)}, hive_partitioning = false)`;
    // A quoted empty field stays '' so csv-view.ts can tell it from null (it is null only outside text columns).
    case 'csv': return `read_csv(${sqlString(path)}, header = true, all_varchar = true, delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, hive_partitioning = false)`;
    case 'jsonl': return `read_ndjson_objects(${sqlString(path)}, hive_partitioning = false)`;
  }
}

/** The DuckDB type the oracle holds a contract type's values in, whatever the file stored. */
export function canonicalType(type: ColumnType): string {
  switch (type.kind) {
    case 'string': return 'VARCHAR';
    case 'binary': return 'BLOB';
    case 'int32':
    case 'int64': return 'BIGINT';
    case 'float32':
    case 'float64': return 'DOUBLE';
    case 'decimal': return `DECIMAL(${type.precision},${type.scale})`;
    case 'boolean': return 'BOOLEAN';
    case 'date': return 'DATE';
    case 'timestamp': return 'TIMESTAMPTZ';
    case 'timestamp_ntz': return 'TIMESTAMP';
  }
}
