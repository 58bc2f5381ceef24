import type { ColumnType } from '../contract/column-type.js';
import { parseTemporal } from '../contract/temporal.js';

/** Returned for a value that cannot be read as the column's type: a `type` violation. */
export const INVALID: unique symbol = Symbol('invalid');
export type Coerced = unknown;
export type Coerce = (raw: unknown) => Coerced;

const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?(?:Infinity|inf)$|^NaN$/i;
const DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?$/;
const OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Builds the function that turns a raw value into the representation the checks compare: numbers
 * (bigint for large int64), epoch milliseconds for dates and timestamps, strings, booleans.
 * Null stays null; a value that does not parse is INVALID.
 */
export function coerceFor(source: 'text' | 'dynamic', type: ColumnType): Coerce {
  const fromText = textParser(type);
  if (source === 'text') return (raw) => (raw === null || raw === undefined ? null : fromText(raw as string));
  return (raw) => {
    if (raw === null || raw === undefined) return null;
    if (typeof raw === 'string') return type.kind === 'string' || type.kind === 'binary' || isStringEncoded(type) ? fromText(raw) : INVALID;
    return fromJson(raw, type);
  };
}

/** Types JSON writes as strings: dates, timestamps, and decimals kept exact. */
function isStringEncoded(type: ColumnType): boolean {
  return type.kind === 'date' || type.kind === 'timestamp' || type.kind === 'timestamp_ntz' || type.kind === 'decimal' || type.kind === 'int64';
}

function fromJson(raw: unknown, type: ColumnType): Coerced {
  switch (type.kind) {
    case 'int32': return Number.isInteger(raw) && (raw as number) >= INT32_MIN && (raw as number) <= INT32_MAX ? raw : INVALID;
    case 'int64': return Number.isInteger(raw) ? raw : INVALID;
    case 'float32':
    case 'float64': return typeof raw === 'number' ? raw : INVALID;
    case 'decimal': return typeof raw === 'number' && Number.isFinite(raw) ? parseDecimal(String(raw), type) : INVALID;
    case 'boolean': return typeof raw === 'boolean' ? raw : INVALID;
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
    case 'float64': return (text) => (FLOAT.test(text) ? parseFloatText(text) : INVALID);
    case 'decimal': return (text) => parseDecimal(text, type);
    case 'boolean': return parseBoolean;
    case 'date': return (text) => parseTemporal(text, 'date') ?? INVALID;
    case 'timestamp': return (text) => (OFFSET.test(text) ? parseTemporal(text, 'timestamp') ?? INVALID : INVALID);
    case 'timestamp_ntz': return (text) => (OFFSET.test(text) ? INVALID : parseTemporal(text, 'timestamp') ?? INVALID);
  }
}

function inInt32(value: number): boolean {
  return value >= INT32_MIN && value <= INT32_MAX;
}

function parseInt64(text: string): Coerced {
  if (!INTEGER.test(text)) return INVALID;
  const value = Number(text);
  if (Number.isSafeInteger(value)) return value;
  const big = BigInt(text);
  return big >= INT64_MIN && big <= INT64_MAX ? big : INVALID;
}

function parseFloatText(text: string): number {
  const lower = text.toLowerCase();
  if (lower.endsWith('inf') || lower.endsWith('infinity')) return lower.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

function parseBoolean(text: string): Coerced {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return INVALID;
}

/** A decimal fits when its integer digits fit p-s and any digits past the scale are zeros. */
function parseDecimal(text: string, type: { precision: number; scale: number }): Coerced {
  const match = DECIMAL.exec(text);
  if (!match || text === '' || /^[+-]?\.?$/.test(text)) return INVALID;
  const integer = (match[1] ?? '').replace(/^0+/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (integer.length > type.precision - type.scale || fraction.length > type.scale) return INVALID;
  return Number(text);
}

/** The wording for a type violation, e.g. `a whole number between -2^31 and 2^31-1`. */
export function describeExpected(type: ColumnType): string {
  switch (type.kind) {
    case 'int32': return 'a 32-bit whole number';
    case 'int64': return 'a 64-bit whole number';
    case 'float32':
    case 'float64': return 'a number';
    case 'decimal': return `a decimal with at most ${type.precision - type.scale} digits before the point and ${type.scale} after`;
    case 'boolean': return 'true or false';
    case 'date': return 'a date YYYY-MM-DD';
    case 'timestamp': return 'an ISO-8601 timestamp with an offset (e.g. 2026-11-30T06:00:00Z)';
    case 'timestamp_ntz': return 'an ISO-8601 timestamp without an offset (e.g. 2026-11-30T06:00:00)';
    default: return 'a string';
  }
}
