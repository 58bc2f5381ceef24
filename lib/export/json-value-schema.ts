import { formatColumnType } from '../contract/column-type.js';
import type { ColumnSeverityRule, ColumnSpec } from '../contract/model.js';
import { exactDigits, exactNumber, INT32_RANGE, INT64_RANGE, integerBound } from './exact-number.js';
import type { JsonBound, Keywords } from './json-schema.js';
import { NumberText } from './json-text.js';
import { DATE_PATTERN, decimalLimitText, decimalTextPattern, INSTANT_PATTERN, int64TextPattern, nonFinitePattern, WALL_CLOCK_PATTERN, type NonFinite } from './json-value-patterns.js';

/**
 * A column's non-null values as JSON Schema, accepting the JSON forms the engine's JSON Lines
 * reader accepts for its type (checks/coerce-value.ts, `dynamic`): decimals as numbers or
 * strings, int64 as numbers or digit strings (exact past 2^53), floats as numbers or the strings
 * NaN and ±Infinity, dates and timestamps as ISO text only (epoch numbers say no unit or zone).
 * Each JSON type is a branch with its own keywords. A rule at `severity: warn` is not asserted:
 * the gate publishes a row that breaks it.
 */
export interface ValueSchema {
  /** One per JSON type a value may have; undefined when the type rule only warns (any value passes). */
  readonly branches?: Branch[];
  /** Keywords for strings when the type is not checked, which leave other values alone. */
  readonly untyped?: Keywords;
  /** What the gate checks of these values that the keywords cannot say, as clauses. */
  readonly engineChecks: string[];
}

export interface Branch {
  readonly type: string;
  readonly keywords: Keywords;
}

const branch = (type: string, keywords: Keywords = {}): Branch => ({ type, keywords });

export type Checks = (rule: ColumnSeverityRule) => boolean;

export function valueSchema(column: ColumnSpec, checks: Checks): ValueSchema {
  if (!checks('type')) return { untyped: column.type.kind === 'string' ? stringRules(column, checks, false) : {}, engineChecks: [`the type ${formatColumnType(column.type)} (severity warn: reported, not blocking)`] };
  const type = column.type;
  switch (type.kind) {
    case 'string': return { branches: [branch('string', stringRules(column, checks, true))], engineChecks: [] };
    case 'binary': return { branches: [branch('string')], engineChecks: [] };
    case 'boolean': return { branches: [branch('boolean')], engineChecks: [] };
    case 'int32': return { branches: [branch('integer', bounds(column, checks, INT32_RANGE))], engineChecks: [] };
    case 'int64': return int64Schema(column, checks);
    case 'float32':
    case 'float64': return floatSchema(column, checks);
    case 'decimal': return decimalSchema(column, type, checks);
    case 'date': return temporal(DATE_PATTERN);
    case 'timestamp': return temporal(INSTANT_PATTERN);
    case 'timestamp_ntz': return temporal(WALL_CLOCK_PATTERN);
  }
}

/** An enum when the type is not checked would reject what the gate only warns about: it is left to the gate. */
function stringRules(column: ColumnSpec, checks: Checks, typed: boolean): Keywords {
  return {
    ...(column.enum && checks('enum') && typed ? { enum: [...column.enum] } : {}),
    ...(column.pattern !== undefined && checks('pattern') ? { pattern: column.pattern } : {}),
    ...(column.minLength !== undefined && checks('length') ? { minLength: column.minLength } : {}),
    ...(column.maxLength !== undefined && checks('length') ? { maxLength: column.maxLength } : {}),
  };
}

/** The contract's bounds that are errors, narrowed to what the type can hold. */
function bounds(column: ColumnSpec, checks: Checks, range?: { min: bigint; max: bigint }): { minimum?: JsonBound; maximum?: JsonBound } {
  const at = (value: number | undefined, rule: 'min' | 'max', limit: bigint | undefined): JsonBound | undefined => {
    if (value !== undefined && checks(rule)) return exactDigits(column, rule, range) ?? (range ? integerBound(value, range) : value);
    return limit;
  };
  const minimum = at(column.min, 'min', range?.min);
  const maximum = at(column.max, 'max', range?.max);
  return { ...(minimum === undefined ? {} : { minimum: small(minimum) }), ...(maximum === undefined ? {} : { maximum: small(maximum) }) };
}

/** A bound in its exact form: a plain number below 2^53, exact integer digits past it. */
function small(bound: JsonBound): JsonBound {
  if (typeof bound === 'number') return exactNumber(bound);
  return typeof bound === 'bigint' && Number.isSafeInteger(Number(bound)) ? Number(bound) : bound;
}

/** Strings cannot be compared: a minimum of zero or more only takes the minus away. */
function nonNegative(column: ColumnSpec, checks: Checks): boolean {
  return column.min !== undefined && column.min >= 0 && checks('min');
}

function rangeLeftToEngine(column: ColumnSpec, checks: Checks, form: string): string[] {
  const min = column.min !== undefined && checks('min');
  const max = column.max !== undefined && checks('max');
  if (!min && !max) return [];
  return [`${form} is ${min && max ? 'within the bounds' : min ? 'at least the minimum' : 'at most the maximum'} (x-contract-gate min/max)`];
}

/**
 * JSON.parse rounds integers past 2^53, so the engine's reader takes long integer literals
 * exactly and refuses a number that was rounded (written with a point or an exponent).
 */
function int64Schema(column: ColumnSpec, checks: Checks): ValueSchema {
  return {
    branches: [branch('integer', bounds(column, checks, INT64_RANGE)), branch('string', { pattern: int64TextPattern(nonNegative(column, checks)) })],
    engineChecks: [
      'an integer beyond ±2^53 is written as digits (with a point or an exponent it is a rounded double, refused)',
      'a string holds a whole number within the 64-bit range',
      ...rangeLeftToEngine(column, checks, 'a string'),
    ],
  };
}

/**
 * NaN is no number within a bound: with a minimum or maximum (whichever the gate counts it
 * under) it fails, as the infinity beyond a bound does. The rest travel as strings.
 */
function floatSchema(column: ColumnSpec, checks: Checks): ValueSchema {
  const min = column.min !== undefined && checks('min');
  const max = column.max !== undefined && checks('max');
  const nanRule = column.min !== undefined ? min : max;
  const allowed: NonFinite[] = [...(nanRule ? [] : ['nan' as const]), ...(max ? [] : ['inf' as const]), ...(min ? [] : ['-inf' as const])];
  const pattern = nonFinitePattern(allowed);
  return { branches: [branch('number', bounds(column, checks)), ...(pattern === undefined ? [] : [branch('string', { pattern })])], engineChecks: [] };
}

/**
 * A decimal is a JSON number (DuckDB, pandas) or a string of digits (exact past a double).
 * Numbers are bounded by the type's largest value, exactly; how many digits follow the point is
 * left to the engine: `multipleOf: 0.01` fails valid amounts in binary floating point
 * (0.07 / 0.01 = 7.000000000000001).
 */
function decimalSchema(column: ColumnSpec, type: { precision: number; scale: number }, checks: Checks): ValueSchema {
  const limit = decimalLimitText(type);
  const within = (value: number | undefined, rule: 'min' | 'max', sign: 1 | -1): JsonBound => {
    const own = value !== undefined && checks(rule) ? value : undefined;
    const edge = Number(limit) * sign;
    if (own !== undefined && (sign === 1 ? own < edge : own > edge)) return exactNumber(own);
    return new NumberText(sign === 1 ? limit : `-${limit}`);
  };
  return {
    branches: [
      branch('number', { minimum: within(column.min, 'min', -1), maximum: within(column.max, 'max', 1) }),
      branch('string', { pattern: decimalTextPattern(type, nonNegative(column, checks)) }),
    ],
    engineChecks: [
      `a number has at most ${type.scale} digit${type.scale === 1 ? '' : 's'} after the point`,
      ...rangeLeftToEngine(column, checks, 'a string'),
    ],
  };
}

function temporal(pattern: string): ValueSchema {
  return { branches: [branch('string', { pattern })], engineChecks: ['the day exists (February 29 only in leap years)'] };
}
