import { formatColumnType, type ColumnType, type ColumnTypeKind } from '../contract/column-type.js';

/** The warehouses `export --to dbt --adapter` names types for; `ansi` is the default. */
export const DBT_ADAPTERS = ['ansi', 'snowflake', 'bigquery', 'postgres', 'redshift', 'duckdb', 'athena', 'databricks'] as const;
export type DbtAdapter = (typeof DBT_ADAPTERS)[number];

export function isDbtAdapter(text: string): text is DbtAdapter {
  return (DBT_ADAPTERS as readonly string[]).includes(text);
}

type Names = Readonly<Record<Exclude<ColumnTypeKind, 'decimal'>, string>>;

/**
 * Each adapter's name for each type, as its `data_type` in an enforced model contract.
 * `ansi` (SQL-standard names that Postgres, Redshift, Snowflake, DuckDB and Trino accept) is the
 * default and what earlier versions wrote. Athena has one TIMESTAMP, without a zone; Snowflake
 * and BigQuery have one float and BigQuery one integer, so a column's meta names the contract
 * type where the warehouse type does not say it (see dbt-column.ts).
 */
const NAMES: Readonly<Record<DbtAdapter, Names>> = {
  ansi: { string: 'varchar', int32: 'integer', int64: 'bigint', float32: 'real', float64: 'double precision', boolean: 'boolean', date: 'date', timestamp: 'timestamp with time zone', timestamp_ntz: 'timestamp', binary: 'varbinary' },
  snowflake: { string: 'varchar', int32: 'integer', int64: 'bigint', float32: 'float', float64: 'float', boolean: 'boolean', date: 'date', timestamp: 'timestamp_tz', timestamp_ntz: 'timestamp_ntz', binary: 'binary' },
  bigquery: { string: 'string', int32: 'int64', int64: 'int64', float32: 'float64', float64: 'float64', boolean: 'bool', date: 'date', timestamp: 'timestamp', timestamp_ntz: 'datetime', binary: 'bytes' },
  postgres: { string: 'text', int32: 'integer', int64: 'bigint', float32: 'real', float64: 'double precision', boolean: 'boolean', date: 'date', timestamp: 'timestamp with time zone', timestamp_ntz: 'timestamp without time zone', binary: 'bytea' },
  // Redshift's bare varchar is varchar(256), too short for text a contract does not bound.
  redshift: { string: 'varchar(max)', int32: 'integer', int64: 'bigint', float32: 'real', float64: 'double precision', boolean: 'boolean', date: 'date', timestamp: 'timestamptz', timestamp_ntz: 'timestamp', binary: 'varbyte' },
  duckdb: { string: 'varchar', int32: 'integer', int64: 'bigint', float32: 'float', float64: 'double', boolean: 'boolean', date: 'date', timestamp: 'timestamptz', timestamp_ntz: 'timestamp', binary: 'blob' },
  athena: { string: 'string', int32: 'int', int64: 'bigint', float32: 'float', float64: 'double', boolean: 'boolean', date: 'date', timestamp: 'timestamp', timestamp_ntz: 'timestamp', binary: 'binary' },
  databricks: { string: 'string', int32: 'int', int64: 'bigint', float32: 'float', float64: 'double', boolean: 'boolean', date: 'date', timestamp: 'timestamp', timestamp_ntz: 'timestamp_ntz', binary: 'binary' },
};

export function dbtDataType(type: ColumnType, adapter: DbtAdapter = 'ansi'): string {
  if (type.kind !== 'decimal') return NAMES[adapter][type.kind];
  const { precision: p, scale: s } = type;
  switch (adapter) {
    case 'snowflake': return `number(${p},${s})`;
    // NUMERIC(P,S) holds a scale up to 9 and 29 digits before the point; BIGNUMERIC the rest.
    case 'bigquery': return s <= 9 && p - s <= 29 ? `numeric(${p},${s})` : `bignumeric(${p},${s})`;
    case 'postgres': return `numeric(${p},${s})`;
    default: return `decimal(${p},${s})`;
  }
}

const DECIMAL = /^(?:decimal|numeric|number|bignumeric)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)$/;

/** Where two types share a name (BigQuery's int64), the wider is meant, and an instant over wall-clock time. */
const WIDEST_FIRST = ['string', 'int64', 'int32', 'float64', 'float32', 'boolean', 'date', 'timestamp', 'timestamp_ntz', 'binary'] as const;

/**
 * The contract type an adapter's `data_type` stands for, as this export writes it; undefined for
 * a name it does not write (the importer then reads it as any dbt project's type name).
 */
export function nativeOfDbtType(dataType: string, adapter: DbtAdapter): string | undefined {
  const text = dataType.trim().toLowerCase().replace(/\s+/g, ' ');
  const decimal = DECIMAL.exec(text);
  if (decimal) return formatColumnType({ kind: 'decimal', precision: Number(decimal[1]), scale: Number(decimal[2]) });
  return WIDEST_FIRST.find((kind) => NAMES[adapter][kind] === text);
}
