import type { ColumnSpec } from '../contract/model.js';
import type { TypedColumn } from '../formats/table-file.js';

/**
 * The `type` message for a typed file's column that is not the contract's type. The two
 * timestamp kinds get a second line naming the fix, because the usual cause is no mistake in
 * the data but a writer default (DuckDB `TIMESTAMP`, pandas naive datetimes, Spark
 * `TIMESTAMP_NTZ`) that a producer changes once they know which knob it is.
 */
export function typeMismatchDetail(column: ColumnSpec, stored: TypedColumn['type']): string {
  const headline = `column ${column.name} is not ${column.typeText} in {count} {file|files}`;
  if (column.type.kind === 'timestamp' && stored.kind === 'timestamp_ntz') return `${headline}${wallClockFix(column.name)}`;
  if (column.type.kind === 'timestamp_ntz' && stored.kind === 'timestamp') return `${headline}${instantFix(column.name)}`;
  return headline;
}

function wallClockFix(name: string): string {
  return `: the data is timestamp_ntz (wall-clock time, not adjusted to UTC), the contract asks for UTC instants
fix: write it UTC-adjusted (DuckDB: TIMESTAMPTZ, e.g. CAST(${sqlName(name)} AS TIMESTAMPTZ), which reads it in the session TimeZone; `
    + `pandas: df[${pyName(name)}].dt.tz_localize('UTC'), or the zone it is in; `
    + `Spark: TIMESTAMP_LTZ, not TIMESTAMP_NTZ, e.g. CAST(${sqlName(name)} AS TIMESTAMP_LTZ), and spark.sql.timestampType=TIMESTAMP_LTZ, the default), `
    + `or declare ${name} as timestamp_ntz in the contract`;
}

function instantFix(name: string): string {
  return `: the data is timestamp (UTC-adjusted instants), the contract asks for wall-clock time
fix: write it without a time zone (DuckDB: TIMESTAMP, e.g. CAST(${sqlName(name)} AS TIMESTAMP), the wall-clock time in the session TimeZone; `
    + `pandas: df[${pyName(name)}].dt.tz_localize(None); `
    + `Spark: TIMESTAMP_NTZ, e.g. CAST(${sqlName(name)} AS TIMESTAMP_NTZ) or spark.sql.timestampType=TIMESTAMP_NTZ), `
    + `or declare ${name} as timestamp in the contract`;
}

function sqlName(name: string): string {
  return /^[a-z_][a-z0-9_]*$/i.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

function pyName(name: string): string {
  return `'${name.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
