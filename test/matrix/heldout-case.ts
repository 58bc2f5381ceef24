import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdent } from '../writers/index.js';
import type { Claim } from './heldout-claims.js';

/**
 * A held-out matrix column: how the source table builds it in DuckDB (planted violations
 * included) and what the contract says of it. Bounds are kept as the contract's text, so the
 * oracle compares against exactly what a reader of the YAML would.
 */
export interface HeldoutColumn {
  readonly name: string;
  /** The source column's DuckDB type, e.g. `DECIMAL(38,10)`, `TIMESTAMP_NS`, `UINTEGER`. */
  readonly sqlType: string;
  /** A SQL expression over the row number `i` (BIGINT, from 0) giving the value, null or planted violation. */
  readonly value: string;
  /** The contract's type text, e.g. `decimal(38,10)`. */
  readonly type: string;
  readonly required?: boolean;
  /** As written in the contract: bare digits for numbers, ISO text for dates and timestamps. */
  readonly min?: string;
  readonly max?: string;
  readonly enum?: readonly string[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly notInFuture?: boolean;
  /** Writer hints: how parquetjs stores it, whether arrow gets it dictionary-encoded. */
  readonly parquetjs?: 'INT64' | 'UTF8' | 'TIMESTAMP_MILLIS' | 'TIMESTAMP_MICROS';
  readonly dictionary?: boolean;
}

export interface HeldoutTable {
  readonly label: string;
  readonly rows: number;
  readonly columns: readonly HeldoutColumn[];
}

/** The `produces.csv` keys of issue 27 (the dialect a CSV writer used). */
export interface CsvDialect {
  readonly delimiter?: string;
  readonly quote?: string;
  readonly escape?: string;
  readonly escape_unquoted?: boolean;
  readonly header?: boolean;
  readonly null_values?: readonly string[];
  readonly encoding?: string;
}

/** A writer outside the writer matrix, with one setting; `write` runs with table `src` loaded. */
export interface HeldoutWriter {
  readonly id: string;
  /** The tool as a user names it, e.g. `@dsnp/parquetjs 1.8.9`. */
  readonly writer: string;
  readonly settings: string;
  readonly format: 'parquet' | 'csv';
  /** The file name's ending, e.g. `parquet`, `csv.gz`. */
  readonly ext: string;
  readonly csv?: CsvDialect;
  write(connection: DuckDBConnection, table: HeldoutTable, path: string): Promise<void>;
}

export interface HeldoutCase {
  /** `<writer id>/<table label>`, unique. */
  readonly id: string;
  /** The types and edges the case probes, in words for the failure message and the note. */
  readonly types: string;
  readonly table: HeldoutTable;
  readonly writer: HeldoutWriter;
  /** What the written file must hold for the case to probe its edge at all. */
  readonly claims: readonly Claim[];
}

export function heldoutCase(types: string, table: HeldoutTable, writer: HeldoutWriter, claims: readonly Claim[] = []): HeldoutCase {
  return { id: `${writer.id}/${table.label}`, types, table, writer, claims };
}

/** Creates table `src` from the columns' expressions over `range(rows)`. */
export async function createSource(connection: DuckDBConnection, table: HeldoutTable): Promise<void> {
  const select = table.columns.map((c) => `CAST(${c.value} AS ${c.sqlType}) AS ${sqlIdent(c.name)}`);
  await connection.run(`CREATE TABLE src AS SELECT ${select.join(', ')} FROM range(${table.rows}) AS t(i) ORDER BY i`);
}

/**
 * A pseudo-random integer in [0, modulo) for row `i` and stream `k`: DuckDB's `hash`, the same
 * for a DuckDB version (the cache key holds the version, so a cached file matches its source).
 */
export function rnd(k: number, modulo: number | bigint): string {
  return `CAST(hash(i, ${k}) % ${modulo} AS BIGINT)`;
}

/** `CASE` over row numbers: the first plant whose `i % every = at` holds wins, else `base`. */
export function planted(base: string, ...plants: readonly (readonly [every: number, at: number, value: string])[]): string {
  if (plants.length === 0) return base;
  return `CASE ${plants.map(([every, at, value]) => `WHEN i % ${every} = ${at} THEN ${value}`).join(' ')} ELSE ${base} END`;
}

/** A literal of a type, from its exact text (a bare 1000000.0000000001 could be read as a double). */
export function lit(text: string, sqlType: string): string {
  return `CAST('${text.replaceAll("'", "''")}' AS ${sqlType})`;
}

/** The contract the case is checked against, as YAML text (JSON strings are YAML scalars). */
export function contractYaml(c: HeldoutCase): string {
  const name = `heldout_${c.id.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
  const dialect = c.writer.csv ? `, csv: ${flow(c.writer.csv)}` : '';
  const columns = c.table.columns.map((column) => `    - ${flow(columnEntry(column))}`);
  return [
    `# The held-out matrix case ${c.id}: ${c.types} (test/matrix/heldout-*.ts).`,
    `name: ${name}`,
    'version: 1.0.0',
    'status: active',
    'owner: { team: contract-gate, notify: [nobody@example.com] }',
    `produces: { format: ${c.writer.format}, partition: "dt={ds}"${dialect} }`,
    'schema:',
    '  extra_columns: reject',
    '  columns:',
    ...columns,
    '',
  ].join('\n');
}

/** Bounds on numeric columns go bare (a YAML number, the text kept); temporal ones quoted. */
function columnEntry(column: HeldoutColumn): Record<string, unknown> {
  const temporal = /^(date|timestamp)/.test(column.type);
  const bound = (text: string | undefined) => (text === undefined ? undefined : temporal ? text : new Bare(text));
  return {
    name: column.name, type: column.type, required: column.required, min: bound(column.min), max: bound(column.max),
    enum: column.enum, pattern: column.pattern, min_length: column.minLength, max_length: column.maxLength, not_in_future: column.notInFuture,
  };
}

class Bare {
  constructor(readonly text: string) {}
}

function flow(value: unknown): string {
  if (value instanceof Bare) return value.text;
  if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{ ${entries.map(([k, v]) => `${k}: ${flow(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}
