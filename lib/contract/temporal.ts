/** ISO-8601 parsing shared by contract bounds and CSV/JSON values. Everything is epoch ms, UTC. */
import { isTemporalType, type ColumnType } from './column-type.js';
import { ExactValue, millisWithFraction, toExact, type Ordered } from './exact-value.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

export const MILLIS_PER_DAY = 86_400_000;

/**
 * Parses a date (`YYYY-MM-DD`) or a timestamp. A timestamp without an offset is read as UTC, which
 * is what a `timestamp_ntz` wall-clock value means when compared with bounds written the same way.
 */
export function parseTemporal(text: string, kind: 'date' | 'timestamp'): number | undefined {
  const date = DATE.exec(text);
  if (date) return validDate(Number(date[1]), Number(date[2]), Number(date[3]));
  if (kind === 'date') return undefined;
  const match = TIMESTAMP.exec(text);
  if (!match) return undefined;
  const day = validDate(Number(match[1]), Number(match[2]), Number(match[3]));
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  if (day === undefined || hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = match[7] ? Number(match[7]) * 1000 : 0;
  return day + ((hour * 60 + minute) * 60 + second) * 1000 + fraction - offsetMillis(match[8]);
}

/**
 * parseTemporal to the nanosecond: epoch ms, or an ExactValue of ms with the digits past them
 * (`2026-01-01T00:00:00.000000001Z`), as exact-value.ts holds values finer than a double.
 */
export function parseTemporalExact(text: string, kind: 'date' | 'timestamp'): number | ExactValue | undefined {
  const fraction = kind === 'timestamp' ? /\.(\d{4,9})(?=Z|[+-]|$)/.exec(text) : null;
  if (!fraction) return parseTemporal(text, kind);
  const millis = parseTemporal(text.replace(fraction[0], `.${fraction[1]!.slice(0, 3)}`), kind);
  return millis === undefined ? undefined : millisWithFraction(millis, fraction[1]!.slice(3));
}

function validDate(year: number, month: number, day: number): number | undefined {
  // Date.UTC reads years 0-99 as 1900-1999: the year is set on its own.
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day);
  const millis = check.getTime();
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return millis;
}

function offsetMillis(offset: string | undefined): number {
  if (!offset || offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

export function formatTimestamp(millis: number): string {
  return Number.isFinite(millis) && Math.abs(millis) <= 8.64e15 ? new Date(millis).toISOString() : String(millis);
}

export function formatDate(millis: number): string {
  return formatTimestamp(millis).slice(0, 10);
}

/** ISO-8601 without milliseconds when they are zero, as reports print times. */
export function isoSeconds(millis: number): string {
  return new Date(millis).toISOString().replace('.000Z', 'Z');
}

/** A min or max bound as a contract writes it: a date or timestamp for temporal columns, every digit of a number. */
export function formatBound(bound: Ordered, type: ColumnType): string {
  if (!isTemporalType(type)) return typeof bound === 'number' && Number.isInteger(bound) && !Number.isSafeInteger(bound) ? toExact(bound).toString() : String(bound);
  return type.kind === 'date' ? formatDate(Number(bound)) : formatInstant(bound);
}

/**
 * A timestamp with every digit it has: `2026-01-01T00:00:00.000Z`, or past the millisecond
 * `2026-01-01T00:00:00.000000001Z` (the fraction in groups of three digits).
 */
export function formatInstant(value: Ordered): string {
  if (typeof value === 'number' && Number.isInteger(value)) return formatTimestamp(value);
  const exact = toExact(value);
  const unit = 10n ** BigInt(exact.scale);
  let millis = exact.units / unit;
  if (exact.units < 0n && millis * unit !== exact.units) millis -= 1n;
  const iso = formatTimestamp(Number(millis));
  if (!iso.endsWith('Z') || exact.scale === 0) return iso;
  const sub = (exact.units - millis * unit).toString().padStart(exact.scale, '0');
  const digits = sub.padEnd(Math.ceil(sub.length / 3) * 3, '0');
  return `${iso.slice(0, -1)}${digits}Z`;
}
