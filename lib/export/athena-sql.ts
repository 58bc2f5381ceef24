import type { ColumnType } from '../contract/column-type.js';

/**
 * Athena DDL (Hive) types:
 *   string STRING · int32 INT · int64 BIGINT · float32 FLOAT · float64 DOUBLE ·
 *   decimal(p,s) DECIMAL(p,s) · boolean BOOLEAN · date DATE · timestamp and timestamp_ntz TIMESTAMP ·
 *   binary BINARY
 * Athena has one TIMESTAMP, without a zone; Parquet instants read as UTC wall-clock time.
 */
export function athenaType(type: ColumnType): string {
  switch (type.kind) {
    case 'string': return 'STRING';
    case 'int32': return 'INT';
    case 'int64': return 'BIGINT';
    case 'float32': return 'FLOAT';
    case 'float64': return 'DOUBLE';
    case 'decimal': return `DECIMAL(${type.precision},${type.scale})`;
    case 'boolean': return 'BOOLEAN';
    case 'date': return 'DATE';
    case 'timestamp':
    case 'timestamp_ntz': return 'TIMESTAMP';
    case 'binary': return 'BINARY';
  }
}

/** A DDL identifier: backticks also keep reserved words such as `date` or `timestamp` usable. */
export function quoteIdentifier(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/**
 * A DDL string literal. Hive reads backslash escapes in DDL strings, and two adjacent literals
 * concatenate there, so a doubled quote would silently vanish: escape with a backslash instead.
 * Line breaks become spaces so a description cannot end the statement early in a SQL console.
 */
export function sqlString(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ').replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  return `'${flat}'`;
}
