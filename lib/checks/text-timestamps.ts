import { addMillis, millisWithFraction, type ExactValue } from '../contract/exact-value.js';
import { MILLIS_PER_DAY } from '../contract/temporal.js';

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A date, a space or `T`, a time to the minute, second or nanosecond, then an optional offset:
 * `Z`, `+HH` (DuckDB, PostgreSQL), `+HHMM`, `+HH:MM` (pandas, ISO), `+HH:MM:SS` (PostgreSQL's
 * local mean time offsets before 1900).
 */
const TIMESTAMP_TEXT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|([+-])(\d{2})(?::(\d{2})(?::(\d{2}))?|(\d{2}))?)?$/;

/** The widest offset any zone has had or any writer emits (java.time's bound). */
export const MAX_OFFSET_HOURS = 18;

/**
 * A timestamp as written: its instant (epoch ms, wall clock read as UTC without an offset), an
 * ExactValue when it has digits past what a double holds (exact-value.ts).
 */
export interface TextTimestamp {
  readonly millis: number | ExactValue;
  readonly hasOffset: boolean;
}

/**
 * Parses a timestamp as CSV and JSON writers render it; undefined for anything else. One match
 * does all the work: this runs for every timestamp field of every row.
 */
export function parseTextTimestamp(text: string): TextTimestamp | undefined {
  const m = TIMESTAMP_TEXT.exec(text);
  if (!m) return undefined;
  const day = civilDay(Number(m[1]), Number(m[2]), Number(m[3]));
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (day === undefined || hour > 23 || minute > 59 || second > 59) return undefined;
  const whole = day + ((hour * 60 + minute) * 60 + second) * 1000;
  const wall = m[7] ? fractionOf(whole, m[7]) : whole;
  if (m[8] === undefined) return { millis: wall, hasOffset: false };
  if (m[8] === 'Z') return { millis: wall, hasOffset: true };
  const [hours, minutes, seconds] = [Number(m[10]), Number(m[11] ?? m[13] ?? 0), Number(m[12] ?? 0)];
  if (hours > MAX_OFFSET_HOURS || minutes > 59 || seconds > 59) return undefined;
  const offset = ((hours * 60 + minutes) * 60 + seconds) * 1000;
  return { millis: addMillis(wall, m[9] === '-' ? offset : -offset), hasOffset: true };
}

/** Whole ms plus `.ddd…` seconds: up to three digits are whole ms, the rest exact (exact-value.ts). */
function fractionOf(whole: number, fraction: string): number | ExactValue {
  const digits = fraction.slice(1);
  const millis = whole + Number(digits.slice(0, 3).padEnd(3, '0'));
  return digits.length <= 3 ? millis : millisWithFraction(millis, digits.slice(3));
}

function parseDay(text: string): number | undefined {
  const m = DATE_TEXT.exec(text);
  return m ? civilDay(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

const GREGORIAN_CYCLE_MS = 146_097 * MILLIS_PER_DAY;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Epoch ms of a calendar day, or undefined for one that does not exist (2026-02-30). */
export function civilDay(year: number, month: number, day: number): number | undefined {
  if (month < 1 || month > 12 || day < 1) return undefined;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0)) return undefined;
  // Date.UTC reads years 0-99 as 1900-1999; 400 Gregorian years are exactly 146,097 days.
  return year < 100 ? Date.UTC(year + 400, month - 1, day) - GREGORIAN_CYCLE_MS : Date.UTC(year, month - 1, day);
}

/**
 * A date: `YYYY-MM-DD`, or midnight without an offset, which is how pandas' `to_json` with
 * `date_format='iso'` writes a date (`2026-11-29T00:00:00.000`). Any other time is no date.
 */
export function parseTextDate(text: string): number | undefined {
  if (text.length === 10) return parseDay(text);
  const stamp = parseTextTimestamp(text);
  return stamp && !stamp.hasOffset && typeof stamp.millis === 'number' && stamp.millis % MILLIS_PER_DAY === 0 ? stamp.millis : undefined;
}

/** Wall-clock time: a timestamp without an offset, or a bare date (pandas writes midnights so). */
export function parseTextWallClock(text: string): number | ExactValue | undefined {
  if (text.length === 10) return parseDay(text);
  const stamp = parseTextTimestamp(text);
  return stamp && !stamp.hasOffset ? stamp.millis : undefined;
}

/** An instant: a timestamp with an offset; wall-clock time is refused, not guessed at. */
export function parseTextInstant(text: string): number | ExactValue | undefined {
  const stamp = parseTextTimestamp(text);
  return stamp?.hasOffset ? stamp.millis : undefined;
}
