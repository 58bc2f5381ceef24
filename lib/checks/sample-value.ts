import type { ColumnType } from '../contract/column-type.js';
import { ExactValue } from '../contract/exact-value.js';
import { formatDate, formatInstant } from '../contract/temporal.js';
import type { SampleValue } from '../report/report.js';

const MAX_TEXT = 200;

/** Renders a value for a report: JSON-safe, readable, and short. */
/** Decodes every character: a leading U+FEFF is data (as column-decoder.ts reads text). */
const TEXT = new TextDecoder('utf-8', { ignoreBOM: true });

export function toSampleValue(value: unknown, type?: ColumnType): SampleValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (type?.kind === 'date') return formatDate(value);
    if (type?.kind === 'timestamp' || type?.kind === 'timestamp_ntz') return formatInstant(value);
    return Number.isFinite(value) ? value : String(value);
  }
  // Every digit: a decimal past 15 of them, a time past the millisecond (exact-value.ts).
  if (value instanceof ExactValue) {
    if (type?.kind === 'date') return formatDate(Number(value));
    return type?.kind === 'timestamp' || type?.kind === 'timestamp_ntz' ? formatInstant(value) : String(value);
  }
  if (typeof value === 'bigint') {
    const safe = asSafeNumber(value);
    return typeof safe === 'number' ? safe : value.toString();
  }
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === 'boolean') return value;
  // A text column a reader delivered as its UTF-8 bytes (BatchOptions.rawText) shows as its text.
  if (value instanceof Uint8Array && type?.kind === 'string') return toSampleValue(TEXT.decode(value), type);
  if (value instanceof Uint8Array) return `0x${hex(value.subarray(0, 32))}${value.length > 32 ? '…' : ''}`;
  return toSampleValue(shortJson(value, 0));
}

/** int64 arrives as bigint from Parquet and as number from text: a bigint within the safe range becomes a number. */
export function asSafeNumber(value: unknown): unknown {
  return typeof value === 'bigint' && Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

export function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** JSON text of a value, cut at a few levels and items: a hostile value may nest a million deep. */
function shortJson(value: unknown, depth: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  if (depth >= 3) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, 5).map((item) => shortJson(item, depth + 1));
    return `[${items.join(',')}${value.length > 5 ? ',…' : ''}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const shown = entries.slice(0, 5).map(([key, item]) => `${JSON.stringify(key)}:${shortJson(item, depth + 1)}`);
  return `{${shown.join(',')}${entries.length > 5 ? ',…' : ''}}`;
}
