import { dateValue, decimalValue, timestampNanosValue, timestampTZValue, timestampValue, type DuckDBAppender } from '@duckdb/node-api';
import { floorDiv, nanosOf } from './exact-time.js';
import type { LogicalColumn, LogicalTable } from '../writers/logical-table.js';
import { duckdb, sqlIdent } from './duckdb-session.js';

const DAY = 86_400_000;
let tables = 0;

export function duckdbType(column: Pick<LogicalColumn, 'type' | 'precision' | 'scale'> & { values?: readonly unknown[] }): string {
  if (column.type === 'timestamp_ntz' && column.values && holdsNanoseconds(column.values)) return 'TIMESTAMP_NS';
  switch (column.type) {
    case 'string': return 'VARCHAR';
    case 'int32': return 'INTEGER';
    case 'int64': return 'BIGINT';
    case 'float32': return 'FLOAT';
    case 'float64': return 'DOUBLE';
    case 'decimal': return `DECIMAL(${column.precision},${column.scale})`;
    case 'boolean': return 'BOOLEAN';
    case 'date': return 'DATE';
    case 'timestamp': return 'TIMESTAMPTZ';
    case 'timestamp_ntz': return 'TIMESTAMP';
    case 'binary': return 'BLOB';
  }
}

/** Loads a logical table into a new DuckDB table and returns its name; the caller drops it. */
export async function loadTable(table: LogicalTable): Promise<string> {
  const connection = await duckdb();
  const name = `logical_${++tables}`;
  const columns = table.columns.map((c) => `${sqlIdent(c.name)} ${duckdbType(c)}`);
  const nanos = table.columns.map((c) => c.type === 'timestamp_ntz' && holdsNanoseconds(c.values));
  // A table needs a column: a file with none gets a placeholder that the caller leaves out.
  await connection.run(`CREATE TABLE ${name} (${columns.length > 0 ? columns.join(', ') : '"__none" INTEGER'})`);
  const appender = await connection.createAppender(name);
  for (let row = 0; row < table.rows; row++) {
    table.columns.forEach((column, i) => appendValue(appender, column, column.values[row], nanos[i]!));
    if (table.columns.length === 0) appender.appendNull();
    appender.endRow();
  }
  appender.closeSync();
  return name;
}

/**
 * Values as LogicalTable has them, and the exact forms edge values take (edge-draw.ts): an int64
 * as a bigint, a decimal as its unscaled bigint, a timestamp as bigint nanoseconds.
 */
function appendValue(appender: DuckDBAppender, column: LogicalColumn, value: unknown, nanos: boolean): void {
  if (value === null || value === undefined) return appender.appendNull();
  switch (column.type) {
    case 'string': return appender.appendVarchar(value as string);
    case 'int32': return appender.appendInteger(value as number);
    case 'int64': return appender.appendBigInt(BigInt(value as number | bigint));
    case 'float32': return appender.appendFloat(value as number);
    case 'float64': return appender.appendDouble(value as number);
    case 'decimal': return appender.appendDecimal(decimalValue(unscaled(value as number | bigint, column.scale!), column.precision!, column.scale!));
    case 'boolean': return appender.appendBoolean(value as boolean);
    case 'date': return appender.appendDate(dateValue(Math.round((value as number) / DAY)));
    case 'timestamp': return appender.appendTimestampTZ(timestampTZValue(micros(value as number | bigint)));
    case 'timestamp_ntz': return nanos ? appender.appendTimestampNanoseconds(timestampNanosValue(nanosOf(value as number | bigint))) : appender.appendTimestamp(timestampValue(micros(value as number | bigint)));
    case 'binary': return appender.appendBlob(value as Uint8Array);
  }
}

/** A wall-clock column with a value between two microseconds goes in as TIMESTAMP_NS. */
export function holdsNanoseconds(values: readonly unknown[]): boolean {
  return values.some((v) => typeof v === 'bigint' && v % 1000n !== 0n);
}

function micros(value: number | bigint): bigint {
  return typeof value === 'bigint' ? floorDiv(value, 1000n) : BigInt(Math.round(value * 1000));
}

/** The exact unscaled integer of a number with at most `scale` decimals. */
function unscaled(value: number | bigint, scale: number): bigint {
  if (typeof value === 'bigint') return value;
  return BigInt(value.toFixed(scale).replace('.', ''));
}
