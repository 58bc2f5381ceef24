import type { ColumnSpec } from '../../lib/contract/model.js';
import { formatDate, formatTimestamp, MILLIS_PER_DAY } from '../../lib/contract/temporal.js';
import type { BrokenRule, CaseValue } from './row-cases.js';
import { PATTERN_EXAMPLES } from './rule-matrix.js';

export const str = (value: string): CaseValue => ({ kind: 'string', value });
export const int = (value: bigint | number): CaseValue => ({ kind: 'integer', value: BigInt(value) });
const float = (value: number): CaseValue => ({ kind: 'float', value });
const dec = (value: string): CaseValue => ({ kind: 'decimal', value });

/** A column's good values, and its bad ones with the rule each breaks and whether JSON Schema can state it. */
export type Values = { good: [string, CaseValue][]; bad: [string, CaseValue, BrokenRule, boolean][] };

/**
 * The values of one column's cases, by its type and rules: each JSON form the gate reads for the
 * type, the edges of its bounds and lengths, and a value breaking each rule.
 */
export function valuesOf(column: ColumnSpec): Values {
  const type = column.type;
  switch (type.kind) {
    case 'string': return stringValues(column);
    case 'binary': return { good: [['a base64 string', str('AAEC')], ['DuckDB\'s escaped bytes', str('\\x00\\x01')]], bad: [['a number', int(5), 'type', true]] };
    case 'boolean': return { good: [['true', { kind: 'boolean', value: true }], ['false', { kind: 'boolean', value: false }]], bad: [['the string "true"', str('true'), 'type', true], ['the number 1', int(1), 'type', true]] };
    case 'int32': return integerValues(column, 32n);
    case 'int64': return integerValues(column, 64n);
    case 'float32':
    case 'float64': return floatValues(column);
    case 'decimal': return decimalValues(column, type);
    case 'date': return dateValues(column);
    case 'timestamp': return instantValues(column);
    case 'timestamp_ntz': return wallClockValues(column);
  }
}

function stringValues(column: ColumnSpec): Values {
  const { enum: values, pattern, minLength, maxLength } = column;
  const good: [string, CaseValue][] = [];
  const bad: Values['bad'] = [['a number', int(5), 'type', true]];
  if (values) {
    good.push(...values.map((v): [string, CaseValue] => [`the enum value ${v}`, str(String(v))]));
    bad.push(['a value outside the enum', str('bronze'), 'enum', true]);
  } else if (pattern !== undefined) {
    const example = PATTERN_EXAMPLES[pattern];
    if (example === undefined) throw new Error(`no example for the pattern ${pattern}: add one to PATTERN_EXAMPLES`);
    good.push(['a value matching the pattern', str(example)]);
    const miss = ['x', 'ZZ-1', '0', 'r'].find((candidate) => !new RegExp(pattern, 'u').test(candidate))!;
    bad.push(['a value off the pattern', str(miss), 'pattern', true]);
  } else if (minLength !== undefined || maxLength !== undefined) {
    const low = minLength ?? 0;
    const high = maxLength ?? low + 3;
    good.push([`${low} characters`, str('a'.repeat(low))], [`${high} characters, astral ones`, str('😀'.repeat(high))]);
    if (low > 0) bad.push([`${low - 1} characters`, str('😀'.repeat(low - 1)), 'length', true]);
    if (maxLength !== undefined) bad.push([`${high + 1} characters`, str('a'.repeat(high + 1)), 'length', true]);
  } else {
    good.push(['text', str('plain text')], ['the empty string', str('')]);
  }
  return { good, bad };
}

function integerValues(column: ColumnSpec, bits: bigint): Values {
  const limit = 2n ** (bits - 1n);
  // The exact bound where the contract's text is not a double (9007199254740993).
  const low = column.min === undefined ? -limit : bigMax(BigInt(column.exactMin ?? column.min), -limit);
  const high = column.max === undefined ? limit - 1n : bigMin(BigInt(column.exactMax ?? column.max), limit - 1n);
  const some = low > 0n ? low : high < 0n ? high : 0n;
  const good: [string, CaseValue][] = [['a whole number', int(some)], ['the least value', int(low)], ['the greatest value', int(high)], ['a whole number written as a float', float(Number(some) + 1)]];
  const bad: Values['bad'] = [['a fraction', float(1.5), 'type', true], ['a digit string', str('42'), 'type', true]];
  if (bits === 64n) {
    good.splice(1, 0, ['a digit string', str(String(some + 2n))], ['a digit string with a sign and zeros', str(`+00${some}`)]);
    if (high > 2n ** 53n) good.push(['2^53 + 1, exactly', int(2n ** 53n + 1n)]);
    bad.splice(1, 1, ['a string of no number', str('12a'), 'type', true], ['a decimal string', str('1.5'), 'type', true], ['a digit string past 2^63', str('9223372036854775808'), 'type', false]);
  }
  if (column.min !== undefined || bits === 32n) bad.push(['below the least value', int(low - 1n), low - 1n < -limit ? 'type' : 'min', true]);
  if (column.max !== undefined || bits === 32n) bad.push(['above the greatest value', int(high + 1n), high + 1n >= limit ? 'type' : 'max', true]);
  if (bits === 64n && column.min !== undefined) bad.push(['a digit string below the least value', str(String(low - 1n)), low - 1n < -limit ? 'type' : 'min', low === 0n]);
  if (bits === 64n && column.max === undefined) bad.push(['2^63, past int64', int(limit), 'type', true]);
  return { good, bad };
}

function bigMax(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function bigMin(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function floatValues(column: ColumnSpec): Values {
  const { min, max } = column;
  const some = min !== undefined && max !== undefined ? (min + max) / 2 : min !== undefined ? min + 1.5 : max !== undefined ? max - 1.5 : 0.5;
  const good: [string, CaseValue][] = [['a number', float(some)], ['a whole number', int(Math.round(some))]];
  const bad: Values['bad'] = [['a word', str('abc'), 'type', true], ['a number in a string', str('1.5'), 'type', true], ['a boolean', { kind: 'boolean', value: true }, 'type', true]];
  if (min !== undefined) good.push(['the minimum', float(min)]);
  if (max !== undefined) good.push(['the maximum', float(max)]);
  if (min === undefined && max === undefined) good.push(['NaN as a string', str('NaN')], ['-inf as a string', str('-inf')], ['Infinity as a string', str('Infinity')], ['a huge number', float(1e300)]);
  if (min !== undefined) bad.push(['below the minimum', float(min - 0.25), 'min', true], ['-Infinity as a string', str('-Infinity'), 'min', true], ['NaN as a string', str('NaN'), 'min', true]);
  if (max !== undefined) bad.push(['above the maximum', float(max + 0.25), 'max', true], ['inf as a string', str('inf'), 'max', true]);
  if (max !== undefined && min === undefined) bad.push(['NaN as a string', str('nan'), 'max', true]);
  if (max !== undefined && min === undefined) good.push(['-inf as a string', str('-inf')]);
  if (min !== undefined && max === undefined) good.push(['+Infinity as a string', str('+Infinity')]);
  return { good, bad };
}

function decimalValues(column: ColumnSpec, type: { precision: number; scale: number }): Values {
  const whole = type.precision - type.scale;
  const fraction = (digits: number, last = '5') => (digits === 0 ? '' : `.${'0'.repeat(digits - 1)}${last}`);
  const largest = `${whole === 0 ? '0' : '9'.repeat(whole)}${type.scale === 0 ? '' : `.${'9'.repeat(type.scale)}`}`;
  const some = `${whole === 0 ? '0' : '1'}${fraction(Math.min(type.scale, 2))}`;
  const good: [string, CaseValue][] = [
    ['a JSON number', dec(some)],
    ['a string', str(some)],
    ['a string with leading and trailing zeros', str(`00${some}${type.scale > 0 ? '00' : ''}`)],
    ['an exponent string', str(`${some}E+0`)],
  ];
  // Past 15 digits a number is a double to pandas and to any validator on parsed JSON: 10^36 and
  // the largest decimal(38,2) are one double. Such numbers are checked as text by the gate alone.
  const exact = type.precision <= 15;
  if (column.max === undefined) good.push(['the largest value as a string', str(largest)], ...(exact ? [['the largest value as a number', dec(largest)] as [string, CaseValue]] : []));
  if (column.min === undefined) good.push(['a negative string', str(`-${some}`)], ['a negative number', dec(`-${some}`)]);
  else good.push(['the minimum', dec(String(column.min))], ['a negative zero string', str('-0.0')]);
  if (column.max !== undefined) good.push(['the maximum', dec(String(column.max))]);
  const tooBig = `1${'0'.repeat(whole)}`;
  const tooFine = `${whole === 0 ? '0' : '1'}${fraction(type.scale + 1, '1')}`;
  const bad: Values['bad'] = [
    ['a word', str('abc'), 'type', true],
    ['a boolean', { kind: 'boolean', value: false }, 'type', true],
    ['a number with too many digits after the point', dec(tooFine), 'type', false],
    ['a string with too many digits after the point', str(tooFine), 'type', true],
    ['a string with too many digits before the point', str(tooBig), 'type', true],
    ['an exponent string too large', str(`1E+${whole + 1}`), 'type', false],
  ];
  if (column.max === undefined) bad.push(['a number with too many digits before the point', dec(tooBig), 'type', exact]);
  else bad.push(['a number above the maximum', dec(String(column.max + 1)), 'max', true], ['a string above the maximum', str(String(column.max + 1)), 'max', false]);
  if (column.min !== undefined) bad.push(['a number below the minimum', dec(String(column.min - 1)), 'min', true], ['a string below the minimum', str(String(column.min - 1)), 'min', column.min === 0]);
  return { good, bad };
}

/** A date or instant within the column's bounds, `days` after the lower one (or 2026-11-29). */
function inside(column: ColumnSpec, days = 0): number {
  const base = column.min ?? Date.parse('2026-11-29T10:00:00Z') - MILLIS_PER_DAY * 3;
  return Math.min(base + days * MILLIS_PER_DAY, column.max ?? Infinity);
}

function dateValues(column: ColumnSpec): Values {
  const day = formatDate(inside(column, 3));
  const good: [string, CaseValue][] = [['a date', { kind: 'date', value: day }], ['a date string', str(day)], ['midnight without an offset', str(`${day}T00:00:00.000`)], ['midnight with a space, to the minute', str(`${day} 00:00`)]];
  if (column.min !== undefined) good.push(['the minimum', str(formatDate(column.min))]);
  if (column.max !== undefined) good.push(['the maximum', str(formatDate(column.max))]);
  if (column.min === undefined && column.max === undefined) good.push(['February 29 of a leap year', str('2024-02-29')]);
  const bad: Values['bad'] = [
    ['epoch milliseconds', int(Date.parse(`${day}T00:00:00Z`)), 'type', true],
    ['a day that does not exist', str(`${day.slice(0, 4)}-02-30`), 'type', true],
    ['February 29 of a common year', str('2026-02-29'), 'type', false],
    ['a time that is not midnight', str(`${day}T10:00:00`), 'type', true],
    ['midnight with an offset', str(`${day}T00:00:00Z`), 'type', true],
    ['a day written day first', str('29.11.2026'), 'type', true],
  ];
  if (column.min !== undefined) bad.push(['the day before the minimum', str(formatDate(column.min - MILLIS_PER_DAY)), 'min', false]);
  if (column.max !== undefined) bad.push(['the day after the maximum', str(formatDate(column.max + MILLIS_PER_DAY)), 'max', false]);
  return { good, bad };
}

function instantValues(column: ColumnSpec): Values {
  const at = formatTimestamp(inside(column, 2)).replace('.000Z', 'Z');
  const head = at.slice(0, 16);
  const good: [string, CaseValue][] = [
    ['an instant', { kind: 'instant', value: at }],
    ['an instant string', str(at)],
    ['an offset of +05:30', str(`${head}:00+05:30`)],
    ['an offset of +0530 and a space, to the minute', str(`${head.replace('T', ' ')}+0530`)],
    ['nine digits of a second and an offset of -08', str(`${head}:00.123456789-08`)],
  ];
  if (column.min !== undefined) good.push(['the minimum', str(formatTimestamp(column.min))]);
  const bad: Values['bad'] = [
    ['wall-clock time', { kind: 'wall', value: at.replace('Z', '') }, 'type', true],
    ['epoch milliseconds', int(Date.parse(at)), 'type', true],
    ['hour 24', str(`${at.slice(0, 11)}24:00:00Z`), 'type', true],
    ['an offset of 19 hours', str(`${head}:00+19:00`), 'type', true],
    ['February 29 of a common year', str('2026-02-29T10:00:00Z'), 'type', false],
  ];
  if (column.min !== undefined) bad.push(['a second before the minimum', str(formatTimestamp(column.min - 1000)), 'min', false]);
  if (column.notInFuture) bad.push(['a future instant', str('2099-01-01T00:00:00Z'), 'not_in_future', false]);
  return { good, bad };
}

function wallClockValues(column: ColumnSpec): Values {
  const at = formatTimestamp(inside(column, 2)).replace('.000Z', '');
  const good: [string, CaseValue][] = [['a wall-clock time', { kind: 'wall', value: at }], ['a wall-clock string', str(at)], ['a bare date', str(at.slice(0, 10))], ['to the minute', str(at.slice(0, 16))]];
  if (column.max !== undefined) good.push(['the maximum', str(formatTimestamp(column.max).replace('Z', ''))]);
  const bad: Values['bad'] = [
    ['an instant', { kind: 'instant', value: `${at}Z` }, 'type', true],
    ['epoch milliseconds', int(Date.parse(`${at}Z`)), 'type', true],
    ['minute 60', str(`${at.slice(0, 14)}60:00`), 'type', true],
  ];
  if (column.max !== undefined) bad.push(['a second after the maximum', str(formatTimestamp(column.max + 1000).replace('Z', '')), 'max', false]);
  return { good, bad };
}
