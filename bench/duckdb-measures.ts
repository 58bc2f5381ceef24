import type { ColumnSpec, Contract } from '../lib/contract/model.js';
import { isTemporalType, type ColumnType } from '../lib/contract/column-type.js';
import { parsePattern } from '../lib/contract/pattern-syntax.js';
import { toRe2Syntax } from '../lib/contract/pattern-re2.js';

/**
 * A contract's checks as DuckDB SQL, for the bench's reference engine (duckdb-checks.ts): one
 * count per column rule in a single scan, and one query per key set (the grain, each `unique`
 * column). Only the rules the bench's contracts use are translated; any other stops the run
 * rather than being skipped (unsupported).
 */
export interface Measure { readonly alias: string; readonly sql: string; readonly rule: string; readonly column: string | null }
export interface KeySetQuery { readonly rule: 'grain' | 'unique'; readonly column: string | null; readonly sql: string }

export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`);

/** The files as one relation. CSV is read with each contract column's type given by name, as the gate reads it. */
export function sourceSql(contract: Contract, files: readonly string[]): string {
  const list = `[${files.map(literal).join(', ')}]`;
  if (contract.produces.format === 'parquet') return `read_parquet(${list}, hive_partitioning = false)`;
  if (contract.produces.format !== 'csv') throw new Error(`duckdb-checks reads parquet and csv, not ${contract.produces.format}`);
  const types = contract.schema.columns.map((c) => `${literal(c.name)}: ${literal(duckdbType(c.type))}`).join(', ');
  // A quoted empty field is an empty string to the gate, not a null.
  return `read_csv(${list}, header = true, delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, hive_partitioning = false, types = {${types}})`;
}

function duckdbType(type: ColumnType): string {
  switch (type.kind) {
    case 'string': return 'VARCHAR';
    case 'binary': return 'BLOB';
    case 'int32': return 'INTEGER';
    case 'int64': return 'BIGINT';
    case 'float32': return 'FLOAT';
    case 'float64': return 'DOUBLE';
    case 'decimal': return `DECIMAL(${type.precision},${type.scale})`;
    case 'boolean': return 'BOOLEAN';
    case 'date': return 'DATE';
    case 'timestamp': return 'TIMESTAMPTZ';
    case 'timestamp_ntz': return 'TIMESTAMP';
  }
}

/**
 * Per column: required (grain columns are required), enum, min, max and pattern, each on non-null
 * values. NaN is not handled as the gate does (once, under min or max): the bench data has none.
 */
export function valueMeasures(contract: Contract): Measure[] {
  const measures: Measure[] = [];
  const add = (rule: string, column: string, condition: string) => measures.push({ alias: `${rule}_${measures.length}`, rule, column, sql: `count(*) FILTER (WHERE ${condition})` });
  for (const spec of contract.schema.columns) {
    unsupported(spec, contract);
    const column = ident(spec.name);
    if (spec.required || contract.schema.grain.includes(spec.name)) add('required', spec.name, `${column} IS NULL`);
    if (spec.enum) add('enum', spec.name, `${column} NOT IN (${spec.enum.map(literal).join(', ')})`);
    // Contract bounds of dates and timestamps are epoch milliseconds.
    const ordered = isTemporalType(spec.type) ? `epoch_ms(${column})` : column;
    if (spec.min !== undefined) add('min', spec.name, `${ordered} < ${literal(spec.min)}`);
    if (spec.max !== undefined) add('max', spec.name, `${ordered} > ${literal(spec.max)}`);
    if (spec.pattern !== undefined) add('pattern', spec.name, `NOT regexp_matches(${column}, ${literal(re2Pattern(spec.pattern))})`);
  }
  return measures;
}

/**
 * The gate's pattern semantics (pattern-matcher.ts): a JavaScript RegExp with the `u` flag that
 * matches anywhere unless anchored, as RegExp#test. regexp_matches is RE2's partial match, and
 * the pattern is given in the RE2 spelling the gate's own RE2 engine runs (pattern-re2.ts: every
 * class as explicit code points, `^`/`$` as `\A`/`\z`), so RE2's different `.` and `\s` never
 * come into it.
 */
export function re2Pattern(pattern: string): string {
  return toRe2Syntax(parsePattern(pattern));
}

/** Repeated keys, counted as the gate counts them: distinct values occurring more than once, nulls left out. */
export function keySetQueries(contract: Contract, source: string): KeySetQuery[] {
  const { grain, columns } = contract.schema;
  const repeated = (names: readonly string[]) =>
    `SELECT count(*)::DOUBLE AS repeated FROM (SELECT 1 FROM ${source} WHERE ${names.map((c) => `${ident(c)} IS NOT NULL`).join(' AND ')} GROUP BY ${names.map(ident).join(', ')} HAVING count(*) > 1)`;
  const queries: KeySetQuery[] = grain.length === 0 ? [] : [{ rule: 'grain', column: null, sql: repeated(grain) }];
  // A unique column that is the whole grain is checked by the grain rule alone (as the gate does).
  for (const spec of columns) {
    if (spec.unique && !(grain.length === 1 && grain[0] === spec.name)) queries.push({ rule: 'unique', column: spec.name, sql: repeated([spec.name]) });
  }
  return queries;
}

function unsupported(spec: ColumnSpec, owner: Contract): void {
  const rules = { min_length: spec.minLength, max_length: spec.maxLength, not_in_future: spec.notInFuture || undefined, required_when: spec.requiredWhen };
  const used = Object.entries(rules).filter(([, value]) => value !== undefined).map(([name]) => name);
  if (used.length > 0) throw new Error(`duckdb-checks does not translate ${used.join(', ')} (column ${spec.name} of ${owner.name}); extend it before benchmarking such a contract`);
}
