import { rm, writeFile } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { LogicalColumn, LogicalTable } from './logical-table.js';
import { sqlIdent, sqlString } from './duckdb-session.js';

const DAY_MS = 86_400_000;

/** The DuckDB column type that writes the Parquet type contract-gate reads as `column.type`. */
export function duckdbType(column: LogicalColumn): string {
  switch (column.type) {
    case 'string': return 'VARCHAR';
    case 'binary': return 'BLOB';
    case 'int32': return 'INTEGER';
    case 'int64': return 'BIGINT';
    case 'float32': return 'FLOAT';
    case 'float64': return 'DOUBLE';
    case 'decimal': return `DECIMAL(${column.precision ?? 18},${column.scale ?? 0})`;
    case 'boolean': return 'BOOLEAN';
    case 'date': return 'DATE';
    // TIMESTAMPTZ is stored as isAdjustedToUTC=true, TIMESTAMP as a wall clock (false).
    case 'timestamp': return 'TIMESTAMPTZ';
    case 'timestamp_ntz': return 'TIMESTAMP';
  }
}

/**
 * Loads a logical table into a DuckDB table `name`, columns in order and typed exactly. The rows
 * travel as JSON Lines whose values are lossless texts or integers (floats as text so NaN and
 * infinities survive, decimals as their exact digits, dates as day numbers, timestamps as epoch
 * ms, bytes as hex) and are cast to the column type in SQL.
 */
export async function loadLogicalTable(connection: DuckDBConnection, table: LogicalTable, name: string, scratchPath: string): Promise<void> {
  await writeFile(scratchPath, jsonLines(table));
  try {
    const keys = table.columns.map((column, i) => `${sqlString(`c${i}`)}: ${sqlString(jsonType(column))}`);
    const source = `read_json(${sqlString(scratchPath)}, format = 'newline_delimited', columns = {${keys.join(', ')}})`;
    const definitions = table.columns.map((column) => `${sqlIdent(column.name)} ${duckdbType(column)}${column.nullable ? '' : ' NOT NULL'}`);
    await connection.run(`CREATE TABLE ${sqlIdent(name)} (${definitions.join(', ')})`);
    if (table.rows === 0) return;
    const casts = table.columns.map((column, i) => castFromJson(column, `c${i}`));
    await connection.run(`INSERT INTO ${sqlIdent(name)} SELECT ${casts.join(', ')} FROM ${source}`);
  } finally {
    await rm(scratchPath, { force: true });
  }
}

function jsonType(column: LogicalColumn): string {
  switch (column.type) {
    case 'int32':
    case 'int64':
    case 'timestamp':
    case 'timestamp_ntz': return 'BIGINT';
    case 'date': return 'INTEGER';
    case 'boolean': return 'BOOLEAN';
    default: return 'VARCHAR';
  }
}

function castFromJson(column: LogicalColumn, key: string): string {
  const value = sqlIdent(key);
  switch (column.type) {
    case 'binary': return `unhex(${value})`;
    case 'float32': return `${value}::DOUBLE::FLOAT`;
    case 'date': return `DATE '1970-01-01' + ${value}`;
    case 'timestamp': return `epoch_ms(${value})::TIMESTAMPTZ`;
    case 'timestamp_ntz': return `epoch_ms(${value})`;
    default: return `${value}::${duckdbType(column)}`;
  }
}

function jsonLines(table: LogicalTable): string {
  const encoders = table.columns.map((column) => jsonEncoder(column));
  const lines: string[] = [];
  for (let row = 0; row < table.rows; row++) {
    const parts = table.columns.map((column, i) => `"c${i}":${encoders[i]!(column.values[row])}`);
    lines.push(`{${parts.join(',')}}`);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function jsonEncoder(column: LogicalColumn): (value: unknown) => string {
  const text = (value: unknown, encode: (v: never) => string) => (value === null || value === undefined ? 'null' : JSON.stringify(encode(value as never)));
  const raw = (value: unknown, encode: (v: never) => number | boolean) => (value === null || value === undefined ? 'null' : String(encode(value as never)));
  switch (column.type) {
    case 'binary': return (v) => text(v, (bytes: Uint8Array) => Buffer.from(bytes).toString('hex'));
    case 'float32':
    case 'float64': return (v) => text(v, floatText);
    case 'decimal': return (v) => text(v, (n: number) => decimalText(n, column.scale ?? 0));
    case 'date': return (v) => raw(v, (ms: number) => Math.floor(ms / DAY_MS));
    case 'string': return (v) => text(v, (s: string) => s);
    default: return (v) => raw(v, (x: number | boolean) => x);
  }
}

/** Text that DuckDB casts back to the same double: keeps -0, NaN and the infinities. */
export function floatText(value: number): string {
  if (Object.is(value, -0)) return '-0';
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  return String(value);
}

/** The exact digits of a decimal value that has at most `scale` digits after the point. */
export function decimalText(value: number, scale: number): string {
  return value.toFixed(scale);
}
