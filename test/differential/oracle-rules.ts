import { isTemporalType, type ColumnType } from '../../lib/contract/column-type.js';
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
  if (column.notInFuture) rules.push(['not_in_future', `${ordered} > ${number(now)}`]);
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
  if (column.min) rules.push(['min', `(${nan} OR ${ordered} < ${number(column.min.value)})`]);
  if (column.max) rules.push(['max', `(${column.min ? 'false' : nan} OR (NOT ${nan} AND ${ordered} > ${number(column.max.value)}))`]);
  return rules;
}

/**
 * Bounds are YAML numbers, i.e. doubles, so values compare as doubles (an exact decimal 0.1 is not
 * "below" the bound 0.1); dates and timestamps compare as epoch milliseconds, wall-clock ones as UTC.
 */
export function orderedValue(type: ColumnType, value: string): string {
  if (!isTemporalType(type)) return `CAST(${value} AS DOUBLE)`;
  const instant = type.kind === 'date' ? `CAST(${value} AS TIMESTAMP)` : value;
  return `(CAST(epoch_us(${instant}) AS DOUBLE) / 1000)`;
}

function number(value: number): string {
  return `CAST('${String(value)}' AS DOUBLE)`;
}
