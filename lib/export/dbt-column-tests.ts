import { isTemporalType } from '../contract/column-type.js';
import type { ColumnSeverityRule, ColumnSpec, RowTolerance } from '../contract/model.js';
import type { DbtAdapter } from './dbt-adapters.js';
import { exactDigits, exactNumber, INT32_RANGE, INT64_RANGE, integerBound, temporalBoundText } from './exact-number.js';

/** A test by name, or `{ name: { ...arguments, config } }`. */
export type DbtTest = string | Record<string, unknown>;

/**
 * The row-level tests fail past the rows the gate may withhold: with `on_violation: {
 * max_invalid_rows: N }` they warn up to N failing rows (`error_if: ">N"`). A share of the rows
 * is no count dbt can compare with.
 */
export interface TestWeight {
  readonly warn: boolean;
  readonly rows?: number;
}

export function test(name: string, args: Record<string, unknown>, weight: TestWeight, where?: string): DbtTest {
  const config = { ...(weight.warn ? { severity: 'warn' } : weight.rows !== undefined && weight.rows > 0 ? { error_if: `>${weight.rows}` } : {}), ...(where === undefined ? {} : { where }) };
  const hasConfig = Object.keys(config).length > 0;
  if (!hasConfig && Object.keys(args).length === 0) return name;
  return { [name]: { ...args, ...(hasConfig ? { config } : {}) } };
}

export function toleratedRows(tolerance: RowTolerance | undefined): number | undefined {
  return tolerance && 'maxInvalidRows' in tolerance ? tolerance.maxInvalidRows : undefined;
}

/**
 * The value rules of a column as the tests dbt projects run: core `accepted_values`, and
 * `dbt_utils` and `dbt_expectations` for ranges, patterns, lengths and dates not in the future
 * (add both packages to packages.yml). The form without `arguments:` is the one every dbt
 * version reads; 1.10+ only warns about it. A regex runs in the warehouse's own dialect, which
 * for common patterns (classes, anchors, counts) reads as the contract's.
 */
export function valueTests(column: ColumnSpec, tolerance: RowTolerance | undefined, adapter: DbtAdapter = 'ansi'): DbtTest[] {
  const rows = toleratedRows(tolerance);
  const weight = (rule: ColumnSeverityRule): TestWeight => ({ warn: column.severity?.[rule] === 'warn', rows });
  return [
    ...(column.enum ? [test('accepted_values', { values: [...column.enum] }, weight('enum'))] : []),
    ...rangeTests(column, weight),
    ...(column.pattern === undefined ? [] : [test('dbt_expectations.expect_column_values_to_match_regex', regexArgs(column.pattern, adapter), weight('pattern'))]),
    ...(column.minLength === undefined && column.maxLength === undefined ? [] : [test('dbt_expectations.expect_column_value_lengths_to_be_between', lengthArgs(column), weight('length'))]),
    ...(column.notInFuture ? [test('dbt_utils.expression_is_true', { expression: `<= ${column.type.kind === 'date' ? 'current_date' : 'current_timestamp'}` }, weight('not_in_future'))] : []),
    ...(column.references ? [test('relationships', { to: `ref('${column.references.contract}')`, field: column.references.column }, { warn: weight('references').warn })] : []),
  ];
}

/** One accepted_range for both bounds, or one each when they weigh differently. */
function rangeTests(column: ColumnSpec, weight: (rule: ColumnSeverityRule) => TestWeight): DbtTest[] {
  const { min, max } = column;
  if (min === undefined && max === undefined) return [];
  const range = (args: Record<string, unknown>, rule: 'min' | 'max') => test('dbt_utils.accepted_range', args, weight(rule));
  const [low, high] = [min === undefined ? {} : { min_value: boundValue(column, min, 'min') }, max === undefined ? {} : { max_value: boundValue(column, max, 'max') }];
  if (min !== undefined && max !== undefined && weight('min').warn !== weight('max').warn) return [range(low, 'min'), range(high, 'max')];
  return [range({ ...low, ...high }, min === undefined ? 'max' : 'min')];
}

/**
 * A bound as accepted_range compares it: a number (an int64 exactly, see exact-number.ts), or
 * for dates and timestamps an ISO string literal, which each warehouse casts to the column's type.
 */
export function boundValue(column: ColumnSpec, value: number, side: 'min' | 'max'): number | bigint | string {
  const { type } = column;
  if (type.kind === 'int32' || type.kind === 'int64') {
    const range = type.kind === 'int32' ? INT32_RANGE : INT64_RANGE;
    const exact = exactDigits(column, side, range);
    return typeof exact === 'bigint' ? exact : integerBound(value, range);
  }
  if (!isTemporalType(type)) return exactNumber(value);
  return `'${temporalBoundText(column, side)}'`;
}

function lengthArgs(column: ColumnSpec): Record<string, number> {
  return { ...(column.minLength === undefined ? {} : { min_value: column.minLength }), ...(column.maxLength === undefined ? {} : { max_value: column.maxLength }) };
}

/** The warehouses whose quoted strings read a backslash as an escape, where dbt_expectations quotes a regex raw on `is_raw`. */
const ESCAPING_STRINGS: readonly DbtAdapter[] = ['snowflake', 'bigquery'];

/**
 * dbt_expectations puts the regex in a plain quoted string; Snowflake and BigQuery would read
 * `\d` there as an escape and match `d`, so a pattern with a backslash goes raw for them
 * (`$$...$$`, `r'...'`), the two adapters dbt_expectations has a raw form for.
 */
function regexArgs(pattern: string, adapter: DbtAdapter): Record<string, unknown> {
  return { regex: pattern, ...(pattern.includes('\\') && ESCAPING_STRINGS.includes(adapter) ? { is_raw: true } : {}) };
}
