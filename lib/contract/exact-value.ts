/**
 * Exact values where a double is not: a decimal with more than 15 significant digits, a time
 * finer than a millisecond. A value is `units / 10^scale` (in the column's unit: the number
 * itself, or epoch milliseconds for dates and timestamps).
 *
 * Every reader hands a value in one canonical form, so equal values look alike whatever wrote
 * them: a number when the value has at most 15 significant digits (the double nearest to it,
 * from which the digits are recovered: 15 digits survive a double), an ExactValue with its
 * trailing zeros stripped otherwise. For dates and timestamps a number is a whole millisecond.
 */
export class ExactValue {
  #approx: number | undefined;

  constructor(readonly units: bigint, readonly scale: number) {}

  /** The nearest double: what `<` with a number, Number() and arithmetic see (messages, freshness). */
  valueOf(): number {
    return (this.#approx ??= Number(this.toString()));
  }

  toString(): string {
    return decimalText(this.units, this.scale);
  }
}

/** A value of an ordered column as the checks compare it. */
export type Ordered = number | bigint | ExactValue;

const POWERS = Array.from({ length: 80 }, (_, k) => 10n ** BigInt(k));
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** Significant digits a double keeps for any decimal (DBL_DIG). */
export const DOUBLE_DIGITS = 15;
/** 10^15: units without trailing zeros at or past it have more than DOUBLE_DIGITS digits. */
const DOUBLE_LIMIT = 10n ** BigInt(DOUBLE_DIGITS);

function power(k: number): bigint {
  return POWERS[k] ?? 10n ** BigInt(k);
}

/** `units * 10^-scale` of decimal text (`-12.50`, `1e-7`); undefined for anything else. */
export function parseDecimalText(text: string): { units: bigint; scale: number } | undefined {
  const m = DECIMAL_TEXT.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const fraction = m[3] ?? '';
  const exponent = Number(m[4] ?? 0);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 400) return undefined;
  let units = BigInt(`${m[2] || '0'}${fraction}`);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= power(-scale);
    scale = 0;
  }
  return { units: m[1] === '-' ? -units : units, scale };
}

/** The canonical value of `units * 10^-scale` (see ExactValue). */
export function decimalValue(units: bigint, scale: number): number | ExactValue {
  let u = units;
  let s = scale;
  while (s > 0 && u % 10n === 0n) {
    u /= 10n;
    s--;
  }
  if (u === 0n) return 0;
  if (u >= DOUBLE_LIMIT || u <= -DOUBLE_LIMIT) return new ExactValue(u, s);
  // One correctly rounded operation on exact operands: the value Number(text) gives.
  if (s === 0) return Number(u);
  return s <= 22 ? Number(u) / 10 ** s : Number(`${u}e-${s}`);
}

/** The canonical value of decimal text, or undefined when it is no decimal. */
export function decimalFromText(text: string): number | ExactValue | undefined {
  const parsed = parseDecimalText(text);
  return parsed && decimalValue(parsed.units, parsed.scale);
}

/** The exact value of a canonical value: a number's own digits (see ExactValue), a bigint as it is. */
export function toExact(value: Ordered): ExactValue {
  if (value instanceof ExactValue) return value;
  if (typeof value === 'bigint') return new ExactValue(value, 0);
  if (Number.isSafeInteger(value)) return new ExactValue(BigInt(value), 0);
  // A number stands for its digits (at most 15): 1e24 is 10^24, not the double's 999999999999999983222784.
  const parsed = parseDecimalText(String(value))!;
  return new ExactValue(parsed.units, parsed.scale);
}

/** -1, 0 or 1 as a is below, at or above b, exactly. */
export function compareExact(a: ExactValue, b: ExactValue): number {
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * power(scale - a.scale);
  const y = b.units * power(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Orders two values exactly; numbers and bigints compare natively (mixed number/bigint
 * comparison is exact in JavaScript). NaN compares as equal to everything; spans never hold it.
 */
export function compareOrdered(a: Ordered, b: Ordered): number {
  if (typeof a !== 'object' && typeof b !== 'object' && !unsafeMix(a, b)) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && !Number.isFinite(a)) return a !== a ? 0 : a > 0 ? 1 : -1;
  if (typeof b === 'number' && !Number.isFinite(b)) return b !== b ? 0 : b > 0 ? -1 : 1;
  return compareExact(toExact(a), toExact(b));
}

/** A bigint beside a whole number past 2^53, which stands for its digits rather than the double's value. */
function unsafeMix(a: number | bigint, b: number | bigint): boolean {
  const number = typeof a === 'number' ? a : typeof b === 'number' ? b : undefined;
  return typeof a !== typeof b && number !== undefined && Number.isInteger(number) && !Number.isSafeInteger(number);
}

/** Decimal text of units * 10^-scale: `-0.0012`, `1000000.0000000001`. */
export function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString();
  if (scale <= 0) return `${negative ? '-' : ''}${digits}${'0'.repeat(-scale)}`;
  const padded = digits.padStart(scale + 1, '0');
  const text = `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
  return `${negative ? '-' : ''}${text}`;
}

/** Floor and ceiling of a value as whole units (bigint), for comparing bigint values with it. */
export function integerFloor(value: ExactValue): bigint {
  const p = power(value.scale);
  const q = value.units / p;
  return value.units < 0n && q * p !== value.units ? q - 1n : q;
}

export function integerCeil(value: ExactValue): bigint {
  const floor = integerFloor(value);
  return floor * power(value.scale) === value.units ? floor : floor + 1n;
}

/** A value moved by whole milliseconds (an offset), kept canonical. */
export function addMillis(value: number | ExactValue, millis: number): number | ExactValue {
  if (typeof value === 'number' && Number.isInteger(value)) return value + millis;
  const exact = toExact(value);
  return decimalValue(exact.units + BigInt(millis) * power(exact.scale), exact.scale);
}

/** Epoch ms plus a fraction of a millisecond written as up to 6 digits after it (`.000000001` s → ms 0, fraction `000001`). */
export function millisWithFraction(millis: number, subMillis: string): number | ExactValue {
  if (!/[1-9]/.test(subMillis)) return millis;
  const scale = subMillis.length;
  return decimalValue(BigInt(millis) * power(scale) + BigInt(subMillis), scale);
}
