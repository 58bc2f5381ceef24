/**
 * Numbers read straight from a text field's bytes, for the shapes writers emit by the million
 * (`7919`, `-0.37`, `369.26`). Each returns undefined for any other text, and the caller then
 * parses the field's text with the contract's text rules (checks/coerce-value.ts): these are a
 * faster road to the same value, never a second set of rules.
 */

const ZERO = 0x30;
const PLUS = 0x2b;
const MINUS = 0x2d;
const POINT = 0x2e;

/**
 * Digits past this many could make a mantissa of 2^53 or more, which a double does not hold
 * exactly; then m / 10^k is no longer the correctly rounded value Number(text) is.
 */
const MAX_DIGITS = 15;

/** Exact powers of ten: a double holds 10^k exactly for k <= 22. */
const POWERS_OF_TEN = Array.from({ length: MAX_DIGITS + 1 }, (_, k) => 10 ** k);

/** `[+-]?\d{1,15}`, as Number(text) reads it (so `-0` is -0); undefined otherwise. */
export function integerAt(b: Uint8Array, start: number, end: number): number | undefined {
  let p = start;
  const sign = b[p];
  if (sign === MINUS || sign === PLUS) p++;
  if (p === end || end - p > MAX_DIGITS) return undefined;
  let value = 0;
  for (; p < end; p++) {
    const digit = b[p]! - ZERO;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return sign === MINUS ? -value : value;
}

/**
 * The parts of `[+-]?\d*(\.\d*)?` with at least one digit and at most 15: what a decimal's rules
 * and its value need. Reused per field, so reading one allocates nothing.
 */
export class PlainDecimal {
  /** The value, as Number(text) reads it: the mantissa divided by an exact power of ten is correctly rounded. */
  value = 0;
  /** Digits before the point, leading zeros included. */
  intDigits = 0;
  /** Index among all digits of the first non-zero one, -1 when every digit is zero. */
  first = -1;
  /** Index among all digits just past the last non-zero one. */
  last = 0;

  /** Reads bytes [start, end); false when they are not of this shape. */
  read(b: Uint8Array, start: number, end: number): boolean {
    let p = start;
    const sign = b[p];
    if (sign === MINUS || sign === PLUS) p++;
    let mantissa = 0;
    let digits = 0;
    let point = -1;
    this.first = -1;
    this.last = 0;
    for (; p < end; p++) {
      const digit = b[p]! - ZERO;
      if (digit >= 0 && digit <= 9) {
        if (digit !== 0) {
          if (this.first < 0) this.first = digits;
          this.last = digits + 1;
        }
        mantissa = mantissa * 10 + digit;
        if (++digits > MAX_DIGITS) return false;
      } else if (digit === POINT - ZERO && point < 0) point = digits;
      else return false;
    }
    if (digits === 0) return false;
    this.intDigits = point < 0 ? digits : point;
    const scaled = mantissa / POWERS_OF_TEN[digits - this.intDigits]!;
    this.value = sign === MINUS ? -scaled : scaled;
    return true;
  }
}

/**
 * A decimal(p,s) as coerce-value.ts's parseDecimal reads it: no more than p-s significant
 * digits before the point and s after, the value then in `reader.value`; false for other shapes
 * and for values that do not fit (the text rules decide those).
 */
export function decimalFits(reader: PlainDecimal, b: Uint8Array, start: number, end: number, precision: number, scale: number): boolean {
  if (!reader.read(b, start, end)) return false;
  if (reader.first < 0) return true;
  const before = Math.max(0, reader.intDigits - reader.first);
  const after = Math.max(0, reader.last - reader.intDigits);
  return before <= precision - scale && after <= scale;
}

const LOWER = 0x20;

/** `true`, `false`, `t`, `f` in any case, as parseBoolean reads them; undefined otherwise. */
export function booleanAt(b: Uint8Array, start: number, end: number): boolean | undefined {
  const length = end - start;
  const c = b[start]! | LOWER;
  if (length === 1) return c === 0x74 ? true : c === 0x66 ? false : undefined;
  if (length === 4 && c === 0x74 && matchesLower(b, start, 'true')) return true;
  if (length === 5 && c === 0x66 && matchesLower(b, start, 'false')) return false;
  return undefined;
}

/** Whether the bytes at `start` are `word` (lowercase letters) in any case. */
function matchesLower(b: Uint8Array, start: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = b[start + i]!;
    // Only letters may have their case folded: `|0x20` would also map `@` or `[` onto letters.
    if (c !== word.charCodeAt(i) && c !== word.charCodeAt(i) - LOWER) return false;
  }
  return true;
}
