import type { ColumnType } from '../../lib/contract/column-type.js';
import type { SpecContract } from './contract-spec.js';
import { queryRows, sqlIdent, sqlString } from './duckdb-session.js';
import { canonicalType, lackingColumn, sourceFor, type ColumnAccess, type FileView } from './file-view.js';
import { timestampNanos } from './oracle-rules.js';
import { satisfies, storedTypeOf } from './oracle-types.js';

/** A Parquet file: its columns as DuckDB types them, each checked against the contract type. */
export async function parquetView(contract: SpecContract, path: string): Promise<FileView> {
  const from = sourceFor('parquet', path);
  const described = await queryRows(`DESCRIBE SELECT * FROM ${from}`);
  const utc = await utcTimestamps(path);
  const types = new Map(described.map((row) => [String(row.column_name), String(row.column_type)]));
  const columns = new Map<string, ColumnAccess | 'missing' | 'mistyped'>();
  for (const column of contract.columns) {
    const duckType = types.get(column.name);
    const ident = sqlIdent(column.name);
    if (duckType === undefined) columns.set(column.name, lackingColumn(contract, column));
    else if (!satisfies(column.type, storedTypeOf(duckType, utc.has(column.name)))) columns.set(column.name, 'mistyped');
    else columns.set(column.name, { isNull: `${ident} IS NULL`, isInvalid: 'false', value: canonical(column.type, duckType, ident) });
  }
  return { from, names: [...types.keys()], columns };
}

/** Columns the Parquet schema marks as UTC instants: INT96, legacy TIMESTAMP_* converted types, isAdjustedToUTC. */
async function utcTimestamps(path: string): Promise<Set<string>> {
  const rows = await queryRows(`SELECT name, type, converted_type, logical_type FROM parquet_schema(${sqlString(path)})`);
  const utc = rows.filter((row) => {
    const logical = String(row.logical_type ?? '');
    if (row.type === 'INT96') return true;
    if (logical.startsWith('TimestampType')) return logical.includes('isAdjustedToUTC=1');
    return logical === '' && String(row.converted_type ?? '').startsWith('TIMESTAMP_');
  });
  return new Set(utc.map((row) => String(row.name)));
}

/** The stored value in the contract type's DuckDB type, so values from different files compare. */
function canonical(type: ColumnType, duckType: string, ident: string): string {
  if (type.kind === 'binary' && duckType === 'VARCHAR') return `encode(${ident})`;
  if (type.kind === 'timestamp' || type.kind === 'timestamp_ntz') return timestampNanos(duckType, ident);
  return `CAST(${ident} AS ${canonicalType(type)})`;
}
