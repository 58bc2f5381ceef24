import type { ColumnType } from '../../lib/contract/column-type.js';
import { mustHaveValue, type Scalar, type SpecColumn, type SpecContract } from './contract-spec.js';
import { sqlString } from './duckdb-session.js';
import type { ColumnAccess, FileView } from './file-view.js';
import { countKey } from './outcome.js';

/** A count the oracle takes over a file's rows: the rule's count key and the SQL condition. */
export interface RowCount {
  readonly key: string;
  readonly where: string;
}

/**
 * The row rules of the README, as SQL over one file: a null counts once under `required`
 * (required, grain part, or required_when whose condition column holds a listed value), a value
 * that does not parse once under `type`, and every other rule looks only at parsed values.
 */
export function rowCounts(contract: SpecContract, view: FileView): RowCount[] {
  const counts: RowCount[] = [];
  for (const column of contract.columns) {
    const access = view.columns.get(column.name);
    if (typeof access !== 'object') continue;
    counts.push({ key: countKey('type', column.name), where: access.isInvalid });
    const required = requiredCondition(contract, column, access, view);
    if (required) counts.push({ key: countKey('required', column.name), where: required });
    const has = `(NOT ${access.isNull} AND NOT ${access.isInvalid})`;
    for (const [rule, broken] of valueRules(column, access.value, contract.now)) counts.push({ key: countKey(rule, column.name), where: `(${has} AND ${broken})` });
  }
  return counts;
}

function requiredCondition(contract: SpecContract, column: SpecColumn, access: ColumnAccess, view: FileView): string | undefined {
  if (mustHaveValue(contract, column)) return access.isNull;
  const when = column.requiredWhen;
  const condition = when && view.columns.get(when.column);
  // A condition column the file lacks or mistypes says nothing, so it requires nothing.
  if (!when || typeof condition !== 'object') return undefined;
  return `(${access.isNull} AND ${condition.value} IN (${when.in.map(literal).join(', ')}))`;
}

function literal(value: Scalar): string {
  return typeof value === 'string' ? sqlString(value) : String(value);
}

/** Each value rule of a column and the SQL that is true when a (non-null, parsed) value breaks it. */
function valueRules(column: SpecColumn, value: string, now: number): [string, string][] {
  const rules: [string, string][] = [];
  const ordered = orderedValue(column.type, value);
  if (column.enum) rules.push(['enum', `${value} NOT IN (${column.enum.map(sqlString).join(', ')})`]);
  if (column.min || column.max) rules.push(...boundRules(column, ordered));
  if (column.pattern !== undefined) rules.push(['pattern', `NOT js_pattern_matches(${sqlString(column.pattern)}, encode(${value}))`]);
  if (column.minLength !== undefined || column.maxLength !== undefined) {
    rules.push(['length', `(length(${value}) < ${column.minLength ?? 0} OR length(${value}) > ${column.maxLength ?? 2 ** 31})`]);
  }
  if (column.notInFuture) rules.push(['not_in_future', `${ordered} > CAST('${BigInt(now) * 1_000_000n}' AS HUGEINT)`]);
  return rules;
}

/**
 * README: a NaN satisfies no bound and is counted once, under `min` when the column has one and
 * `max` otherwise; DuckDB alone would call it greater than every number.
 */
function boundRules(column: SpecColumn, ordered: string): [string, string][] {
  const floats = column.type.kind === 'float32' || column.type.kind === 'float64';
  const nan = floats ? `isnan(${ordered})` : 'false';
  const rules: [string, string][] = [];
  if (column.min) rules.push(['min', `(${nan} OR ${ordered} < ${column.min.sql})`]);
  if (column.max) rules.push(['max', `(${column.min ? 'false' : nan} OR (NOT ${nan} AND ${ordered} > ${column.max.sql}))`]);
  return rules;
}

/**
 * Issue 27: compared exactly where the contract is exact, against the bound's own text (Bound.sql):
 * integers as HUGEINT, decimals at their scale in DECIMAL(38,s), floats as doubles (a float bound
 * is the double its text reads as); dates and timestamps as epoch nanoseconds in HUGEINT (a
 * timestamp's value already is, see timestampNanos), wall-clock ones as UTC.
 */
export function orderedValue(type: ColumnType, value: string): string {
  switch (type.kind) {
    case 'int32':
    case 'int64': return `CAST(${value} AS HUGEINT)`;
    case 'decimal': return `CAST(${value} AS DECIMAL(38,${type.scale}))`;
    case 'date': return `(CAST(epoch_us(CAST(${value} AS TIMESTAMP)) AS HUGEINT) * 1000)`;
    case 'timestamp':
    case 'timestamp_ntz': return value;
    default: return `CAST(${value} AS DOUBLE)`;
  }
}

/** A timestamp column's value as the oracle holds it: exact epoch nanoseconds, whatever unit the file stores. */
export function timestampNanos(duckdbType: string, value: string): string {
  return duckdbType === 'TIMESTAMP_NS' ? `CAST(epoch_ns(${value}) AS HUGEINT)` : `(CAST(epoch_us(${value}) AS HUGEINT) * 1000)`;
}
