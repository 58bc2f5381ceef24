import { dateValue, decimalValue, timestampTZValue, timestampValue, type DuckDBAppender } from '@duckdb/node-api';
import type { LogicalColumn, LogicalTable } from '../writers/logical-table.js';
import { duckdb, sqlIdent } from './duckdb-session.js';

const DAY = 86_400_000;
let tables = 0;

export function duckdbType(column: Pick<LogicalColumn, 'type' | 'precision' | 'scale'>): string {
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
  // A table needs a column: a file with none gets a placeholder that the caller leaves out.
  await connection.run(`CREATE TABLE ${name} (${columns.length > 0 ? columns.join(', ') : '"__none" INTEGER'})`);
  const appender = await connection.createAppender(name);
  for (let row = 0; row < table.rows; row++) {
    for (const column of table.columns) appendValue(appender, column, column.values[row]);
    if (table.columns.length === 0) appender.appendNull();
    appender.endRow();
  }
  appender.closeSync();
  return name;
}

function appendValue(appender: DuckDBAppender, column: LogicalColumn, value: unknown): void {
  if (value === null || value === undefined) return appender.appendNull();
  switch (column.type) {
    case 'string': return appender.appendVarchar(value as string);
    case 'int32': return appender.appendInteger(value as number);
    case 'int64': return appender.appendBigInt(BigInt(value as number));
    case 'float32': return appender.appendFloat(value as number);
    case 'float64': return appender.appendDouble(value as number);
    case 'decimal': return appender.appendDecimal(decimalValue(unscaled(value as number, column.scale!), column.precision!, column.scale!));
    case 'boolean': return appender.appendBoolean(value as boolean);
    case 'date': return appender.appendDate(dateValue(Math.round((value as number) / DAY)));
    case 'timestamp': return appender.appendTimestampTZ(timestampTZValue(BigInt(Math.round((value as number) * 1000))));
    case 'timestamp_ntz': return appender.appendTimestamp(timestampValue(BigInt(Math.round((value as number) * 1000))));
    case 'binary': return appender.appendBlob(value as Uint8Array);
  }
}

/** The exact unscaled integer of a number with at most `scale` decimals. */
function unscaled(value: number, scale: number): bigint {
  return BigInt(value.toFixed(scale).replace('.', ''));
}
