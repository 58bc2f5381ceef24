import { civilDay, MAX_OFFSET_HOURS } from '../checks/text-timestamps.js';
import { MILLIS_PER_DAY } from '../contract/temporal.js';

const ZERO = 0x30;
const DASH = 0x2d;
const PLUS = 0x2b;
const COLON = 0x3a;
const POINT = 0x2e;
const SPACE = 0x20;
const T = 0x54;
const Z = 0x5a;

const POWERS_OF_TEN = Array.from({ length: 10 }, (_, k) => 10 ** k);

/** The two digits at `i` as a number, or -1 when they are not two digits. */
function twoDigits(b: Uint8Array, i: number): number {
  const high = b[i]! - ZERO;
  const low = b[i + 1]! - ZERO;
  return high >= 0 && high <= 9 && low >= 0 && low <= 9 ? high * 10 + low : -1;
}

/**
 * Timestamps and dates read straight from a field's bytes, in exactly the grammar of
 * checks/text-timestamps.ts and with the same arithmetic, so each value is the very double the
 * text rules compute. A field it does not take (returns undefined) goes to those rules, which
 * decide; this is only the fast road for what writers emit. It remembers the last calendar day
 * it saw, as a file's timestamps mostly share a few days and Date.UTC is the slow part.
 */
export class TimestampBytes {
  /** What the last successful read found: epoch ms (wall clock read as UTC when it had no offset). */
  millis = 0;
  private hasOffset = false;
  private lastDayKey = -1;
  private lastDay = 0;

  /** A `timestamp`: only with an offset. False leaves the field to the text rules. */
  instant(b: Uint8Array, start: number, end: number): boolean {
    return this.stamp(b, start, end) && this.hasOffset;
  }

  /** A `timestamp_ntz`: without an offset, or a bare date. */
  wallClock(b: Uint8Array, start: number, end: number): boolean {
    if (end - start === 10) return this.day(b, start);
    return this.stamp(b, start, end) && !this.hasOffset;
  }

  /** A `date`: a bare date, or midnight without an offset. */
  date(b: Uint8Array, start: number, end: number): boolean {
    if (end - start === 10) return this.day(b, start);
    return this.stamp(b, start, end) && !this.hasOffset && this.millis % MILLIS_PER_DAY === 0;
  }

  private day(b: Uint8Array, start: number): boolean {
    if (!this.dayAt(b, start)) return false;
    this.millis = this.lastDay;
    return true;
  }

  /**
   * `YYYY-MM-DD` at `start`, its epoch ms then in `lastDay`; false for no such day. A flag, not
   * the number, is returned: a returned double is boxed on every call.
   */
  private dayAt(b: Uint8Array, start: number): boolean {
    const century = twoDigits(b, start);
    const years = twoDigits(b, start + 2);
    const month = twoDigits(b, start + 5);
    const day = twoDigits(b, start + 8);
    if (century < 0 || years < 0 || month < 0 || day < 0 || b[start + 4] !== DASH || b[start + 7] !== DASH) return false;
    const key = ((century * 100 + years) * 100 + month) * 100 + day;
    if (key === this.lastDayKey) return true;
    const millis = civilDay(century * 100 + years, month, day);
    if (millis === undefined) return false;
    this.lastDayKey = key;
    this.lastDay = millis;
    return true;
  }

  /**
   * Reads a date, `T` or space, a time and an optional offset into millis/hasOffset. The digits
   * are read inline, not through a helper per pair: this runs twice a row in a timestamped file,
   * and calls past the compiler's inlining budget cost more than the arithmetic.
   */
  private stamp(b: Uint8Array, start: number, end: number): boolean {
    if (end - start < 16 || !this.dayAt(b, start)) return false;
    const separator = b[start + 10];
    const h1 = b[start + 11]! - ZERO;
    const h0 = b[start + 12]! - ZERO;
    const m1 = b[start + 14]! - ZERO;
    const m0 = b[start + 15]! - ZERO;
    if ((separator !== T && separator !== SPACE) || b[start + 13] !== COLON) return false;
    if (h1 < 0 || h1 > 2 || h0 < 0 || h0 > 9 || m1 < 0 || m1 > 5 || m0 < 0 || m0 > 9) return false;
    let p = start + 16;
    let second = 0;
    let fraction = 0;
    if (p < end && b[p] === COLON) {
      const s1 = end - p >= 3 ? b[p + 1]! - ZERO : -1;
      const s0 = end - p >= 3 ? b[p + 2]! - ZERO : -1;
      if (s1 < 0 || s1 > 5 || s0 < 0 || s0 > 9) return false;
      second = s1 * 10 + s0;
      p += 3;
      if (p < end && b[p] === POINT) {
        let digits = 0;
        let value = 0;
        for (p++; p < end && digits < 10; p++, digits++) {
          const digit = b[p]! - ZERO;
          if (digit < 0 || digit > 9) break;
          value = value * 10 + digit;
        }
        if (digits === 0 || digits > 9) return false;
        // Whole milliseconds, as text-timestamps.ts reads them; digits past them that are not all
        // zeros make a value finer than a double holds, which the text rules keep exactly.
        if (digits <= 3) fraction = value * POWERS_OF_TEN[3 - digits]!;
        else if (value % POWERS_OF_TEN[digits - 3]! === 0) fraction = value / POWERS_OF_TEN[digits - 3]!;
        else return false;
      }
    }
    const hour = h1 * 10 + h0;
    if (hour > 23) return false;
    const wall = this.lastDay + ((hour * 60 + m1 * 10 + m0) * 60 + second) * 1000 + fraction;
    return this.offset(b, p, end, wall);
  }

  /** The optional offset from `p` to the end: `Z`, `+HH`, `+HHMM`, `+HH:MM`, `+HH:MM:SS`. */
  private offset(b: Uint8Array, p: number, end: number, wall: number): boolean {
    this.millis = wall;
    this.hasOffset = p < end;
    if (p === end) return true;
    const sign = b[p];
    if (sign === Z) return p + 1 === end;
    if (sign !== PLUS && sign !== DASH) return false;
    const length = end - p - 1;
    const hours = length >= 2 ? twoDigits(b, p + 1) : -1;
    let minutes = 0;
    let seconds = 0;
    if (length === 4) minutes = twoDigits(b, p + 3);
    else if (length === 5 || length === 8) {
      minutes = b[p + 3] === COLON ? twoDigits(b, p + 4) : -1;
      if (length === 8) seconds = b[p + 6] === COLON ? twoDigits(b, p + 7) : -1;
    } else if (length !== 2) return false;
    if (hours < 0 || minutes < 0 || seconds < 0 || hours > MAX_OFFSET_HOURS || minutes > 59 || seconds > 59) return false;
    const offset = ((hours * 60 + minutes) * 60 + seconds) * 1000;
    this.millis = sign === DASH ? wall + offset : wall - offset;
    return true;
  }
}
