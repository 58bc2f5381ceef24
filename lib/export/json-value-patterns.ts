/**
 * The text forms the engine reads from JSON strings (checks/coerce-value.ts, checks/text-timestamps.ts),
 * as JSON Schema patterns. `[0-9]`, not `\d`: Python's `re` takes `\d` for any Unicode digit.
 * Where a pattern cannot be exact it accepts more, and the column's $comment names what is left
 * to contract-gate (see json-value-schema.ts).
 */

const DIGIT = '[0-9]';
/** A month and a day it has; February 29 is taken in every year (the leap year is left to the engine). */
const MONTH_DAY = '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-9]))';
const DATE = `${DIGIT}{4}-${MONTH_DAY}`;
const TIME = `[T ](?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.${DIGIT}{1,9})?)?`;
/** `Z`, `+HH`, `+HHMM`, `+HH:MM`, `+HH:MM:SS`, up to 18 hours. */
const OFFSET = '(?:Z|[+-](?:0[0-9]|1[0-8])(?::[0-5][0-9](?::[0-5][0-9])?|[0-5][0-9])?)';

/** `YYYY-MM-DD`, or midnight without an offset (pandas' `2026-11-29T00:00:00.000`). */
export const DATE_PATTERN = `^${DATE}(?:[T ]00:00(?::00(?:\\.0{1,9})?)?)?$`;
/** An instant: a date and time with an offset. */
export const INSTANT_PATTERN = `^${DATE}${TIME}${OFFSET}$`;
/** Wall-clock time: a date and time without an offset, or a bare date. */
export const WALL_CLOCK_PATTERN = `^${DATE}(?:${TIME})?$`;

/**
 * An int64 as a string: digits with an optional sign, at most 19 after leading zeros. The exact
 * range (19 digits reach past 2^63) is left to the engine. When negative values are out of range,
 * only a negative zero keeps its minus.
 */
export function int64TextPattern(nonNegative: boolean): string {
  return `^${nonNegative ? '(?:\\+|-(?=0+$))?' : '[+-]?'}0*${DIGIT}{1,19}$`;
}

/**
 * A decimal(p,s) as a string: at most p-s significant digits before the point and s after it,
 * leading and trailing zeros aside, as the engine counts them. Exponent forms (`1.5E+2`, which
 * pandas writes) are taken whatever their digits: their size is left to the engine.
 */
export function decimalTextPattern(type: { precision: number; scale: number }, nonNegative: boolean): string {
  const whole = type.precision - type.scale;
  const integer = whole === 0 ? '0*' : `0*${DIGIT}{0,${whole}}`;
  const fraction = type.scale === 0 ? '(?:\\.0*)?' : `(?:\\.${DIGIT}{0,${type.scale}}0*)?`;
  const plain = `(?=\\.?${DIGIT})${integer}${fraction}`;
  const exponent = `(?:${DIGIT}+\\.?${DIGIT}*|\\.${DIGIT}+)[eE][+-]?${DIGIT}+`;
  const sign = nonNegative ? '(?:\\+|-(?=[0.]*(?:[eE]|$)))?' : '[+-]?';
  return `^${sign}(?:${plain}|${exponent})$`;
}

/** The largest decimal(p,s), exactly: `999.99` for decimal(5,2). */
export function decimalLimitText(type: { precision: number; scale: number }): string {
  const whole = type.precision - type.scale;
  return `${whole === 0 ? '0' : '9'.repeat(whole)}${type.scale === 0 ? '' : `.${'9'.repeat(type.scale)}`}`;
}

export type NonFinite = 'nan' | 'inf' | '-inf';

/** NaN and the infinities as strings (`NaN`, `-inf`, `Infinity`, any case), the ones given only. */
export function nonFinitePattern(allowed: readonly NonFinite[]): string | undefined {
  if (allowed.length === 0) return undefined;
  const forms = allowed.map((token) => {
    if (token === 'nan') return `[+-]?${anyCase('nan')}`;
    const infinity = `${anyCase('inf')}(?:${anyCase('inity')})?`;
    return token === 'inf' ? `\\+?${infinity}` : `-${infinity}`;
  });
  return `^(?:${forms.join('|')})$`;
}

/** JSON Schema patterns have no flags: `nan` as `[nN][aA][nN]`. */
function anyCase(word: string): string {
  return [...word].map((c) => `[${c}${c.toUpperCase()}]`).join('');
}
