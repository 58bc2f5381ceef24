import type { ColumnType } from '../contract/column-type.js';
import { decimalFromText, ExactValue } from '../contract/exact-value.js';
import { parseTextDate, parseTextInstant, parseTextWallClock } from './text-timestamps.js';

/** Returned for a value that cannot be read as the column's type: a `type` violation. */
export const INVALID: unique symbol = Symbol('invalid');
export type Coerced = unknown;
export type Coerce = (raw: unknown) => Coerced;

const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** NaN and the infinities as DuckDB (`nan`, `-inf`), PostgreSQL and JSON writers (`NaN`, `-Infinity`) spell them. */
const NON_FINITE = /^(?:[+-]?nan|[+-]?inf(?:inity)?)$/i;
const DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Builds the function that turns a raw value into the representation the checks compare: numbers
 * (bigint for large int64, an ExactValue for a decimal past 15 digits), epoch milliseconds for
 * dates and timestamps (an ExactValue when finer than a double holds), strings, booleans.
 * Null stays null; a value that does not parse is INVALID.
 */
export function coerceFor(source: 'text' | 'dynamic', type: ColumnType): Coerce {
  const fromText = textParser(type);
  if (source === 'text') {
    // A quoted empty field can be no number, date or boolean: it is how Python's csv module
    // and pandas with QUOTE_ALL or QUOTE_NONNUMERIC write a null, so it reads as one.
    const emptyIsNull = type.kind !== 'string' && type.kind !== 'binary';
    return (raw) => (raw === null || raw === undefined || (emptyIsNull && raw === '') ? null : fromText(raw as string));
  }
  return (raw) => {
    if (raw === null || raw === undefined) return null;
    if (typeof raw === 'string') return acceptsJsonString(type, raw) ? fromText(raw) : INVALID;
    return fromJson(raw, type);
  };
}

/**
 * Which JSON strings are read by the text rules: values JSON cannot hold exactly or at all
 * (dates, timestamps, decimals and int64 kept exact, NaN and the infinities), and strings.
 */
function acceptsJsonString(type: ColumnType, raw: string): boolean {
  switch (type.kind) {
    case 'string':
    case 'binary':
    case 'date':
    case 'timestamp':
    case 'timestamp_ntz':
    case 'decimal':
    case 'int64': return true;
    case 'float32':
    case 'float64': return NON_FINITE.test(raw);
    default: return false;
  }
}

/**
 * JSON numbers. A number that is not a safe integer was rounded by the writer or the parser,
 * so it is no int64; the JSON Lines reader hands exact bigints for long integer literals.
 * Epoch numbers are no dates or timestamps: they say neither their unit nor their zone.
 */
function fromJson(raw: unknown, type: ColumnType): Coerced {
  if (raw instanceof ExactValue) return fromExactJson(raw, type);
  const number = typeof raw === 'number';
  switch (type.kind) {
    case 'int32': return number && Number.isInteger(raw) && inInt32(raw as number) ? raw : INVALID;
    case 'int64': return number ? (Number.isSafeInteger(raw) ? raw : INVALID) : typeof raw === 'bigint' && inInt64(raw) ? raw : INVALID;
    case 'float32':
    case 'float64': return number ? raw : typeof raw === 'bigint' ? Number(raw) : INVALID;
    case 'decimal': return (number && Number.isFinite(raw)) || typeof raw === 'bigint' ? parseDecimal(String(raw), type) : INVALID;
    case 'boolean': return typeof raw === 'boolean' ? raw : INVALID;
    default: return INVALID;
  }
}

/**
 * A JSON number with more digits than a double keeps (json-line.ts). A decimal is read as written
 * where it fits the type, else as the double a JSON reader sees (pandas writes 9999999999.99 as
 * 9999999999.9899997711); a float is that double.
 */
function fromExactJson(raw: ExactValue, type: ColumnType): Coerced {
  switch (type.kind) {
    case 'decimal': {
      const exact = parseDecimal(raw.toString(), type);
      return exact === INVALID ? parseDecimal(String(Number(raw)), type) : exact;
    }
    case 'float32':
    case 'float64': return Number(raw);
    // A whole number written with a point past 2^53 is a float's digits, as JSON.parse made it before.
    default: return INVALID;
  }
}

function textParser(type: ColumnType): (text: string) => Coerced {
  switch (type.kind) {
    case 'string':
    case 'binary': return (text) => text;
    case 'int32': return (text) => (INTEGER.test(text) && inInt32(Number(text)) ? Number(text) : INVALID);
    case 'int64': return parseInt64;
    case 'float32':
    case 'float64': return parseFloatText;
    case 'decimal': return (text) => parseDecimal(text, type);
    case 'boolean': return parseBoolean;
    case 'date': return (text) => parseTextDate(text) ?? INVALID;
    case 'timestamp': return (text) => parseTextInstant(text) ?? INVALID;
    case 'timestamp_ntz': return (text) => parseTextWallClock(text) ?? INVALID;
  }
}

function inInt32(value: number): boolean {
  return value >= INT32_MIN && value <= INT32_MAX;
}

function inInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

function parseInt64(text: string): Coerced {
  if (!INTEGER.test(text)) return INVALID;
  const value = Number(text);
  if (Number.isSafeInteger(value)) return value;
  const big = BigInt(text);
  return inInt64(big) ? big : INVALID;
}

function parseFloatText(text: string): Coerced {
  if (FLOAT.test(text)) return Number(text);
  if (!NON_FINITE.test(text)) return INVALID;
  const lower = text.toLowerCase();
  if (lower.endsWith('nan')) return NaN;
  return lower.startsWith('-') ? -Infinity : Infinity;
}

/** `true`/`false` in any case (DuckDB, Spark, pandas' `True`), and PostgreSQL's `t`/`f`. */
function parseBoolean(text: string): Coerced {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 't') return true;
  if (lower === 'false' || lower === 'f') return false;
  return INVALID;
}

/**
 * A decimal fits when its significant digits need no more than p-s places before the point and
 * s after; exponent forms (pandas writes `1E+2`, JSON numbers print as `1e-7`) count the same way.
 */
function parseDecimal(text: string, type: { precision: number; scale: number }): Coerced {
  const match = DECIMAL.exec(text);
  const digits = match ? `${match[1] ?? ''}${match[2] ?? ''}` : '';
  if (!match || digits === '') return INVALID;
  const point = (match[1] ?? '').length + Number(match[3] ?? 0);
  const first = digits.search(/[1-9]/);
  if (first === -1) return Number(text);
  const end = lastNonZero(digits) + 1;
  const before = Math.max(0, point - first);
  const after = Math.max(0, end - point);
  // The canonical value (exact-value.ts): the double when 15 digits hold it, every digit otherwise.
  return before > type.precision - type.scale || after > type.scale ? INVALID : decimalFromText(text) ?? INVALID;
}

function lastNonZero(digits: string): number {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '0') i--;
  return i;
}

/**
 * The wording for a type violation: what a value must look like, then a `fix:` line with the
 * usual cause in a writer and the setting that changes it, where there is a usual cause.
 */
export function describeExpected(type: ColumnType): string {
  switch (type.kind) {
    case 'int32':
    case 'int64': return `a ${type.kind === 'int32' ? 32 : 64}-bit whole number\n${INTEGER_FIX}`;
    case 'float32':
    case 'float64': return 'a number (NaN, inf and Infinity are numbers too)';
    case 'decimal': return `a decimal with at most ${type.precision - type.scale} digits before the point and ${type.scale} after`;
    case 'boolean': return 'true or false (also True/False and t/f)';
    case 'date': return `a date YYYY-MM-DD\n${DATE_FIX}`;
    case 'timestamp': return `a timestamp with an offset such as Z or +00:00 (e.g. 2026-11-30 06:00:00+00)\n${INSTANT_FIX}`;
    case 'timestamp_ntz': return `a timestamp without an offset (e.g. 2026-11-30 06:00:00)\n${WALL_CLOCK_FIX}`;
    default: return 'a string';
  }
}

const INTEGER_FIX = 'fix: write whole numbers as digits, with no point or exponent (pandas writes an integer column with nulls as floats such as 1.0: give it a nullable integer dtype such as Int64)';
const DATE_FIX = "fix: write ISO dates (pandas to_json: date_format='iso'; epoch numbers are not read as dates; PostgreSQL: DateStyle ISO)";
const INSTANT_FIX = "fix: a value without an offset is wall-clock time: write the offset (DuckDB: a TIMESTAMPTZ column; pandas: .dt.tz_localize('UTC'), and to_json(date_format='iso') rather than epoch numbers), or declare the column timestamp_ntz if wall-clock time is what it holds";
const WALL_CLOCK_FIX = "fix: a value with an offset is an instant: write wall-clock time (DuckDB: a TIMESTAMP column; pandas: .dt.tz_localize(None), and to_json(date_format='iso') rather than epoch numbers), or declare the column timestamp if instants are what it holds";
