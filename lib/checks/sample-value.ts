import type { ColumnType } from '../contract/column-type.js';
import { formatDate, formatTimestamp } from '../contract/temporal.js';
import type { SampleValue } from '../report/report.js';

const MAX_TEXT = 200;

/** Renders a value for a report: JSON-safe, readable, and short. */
export function toSampleValue(value: unknown, type?: ColumnType): SampleValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (type?.kind === 'date') return formatDate(value);
    if (type?.kind === 'timestamp' || type?.kind === 'timestamp_ntz') return formatTimestamp(value);
    return Number.isFinite(value) ? value : String(value);
  }
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) return `0x${hex(value.subarray(0, 32))}${value.length > 32 ? '…' : ''}`;
  return toSampleValue(JSON.stringify(value));
}

export function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}
