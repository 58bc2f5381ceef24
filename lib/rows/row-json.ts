import type { SchemaElement, SchemaTree } from 'hyparquet';
import { parseFloat16 } from 'hyparquet/src/convert.js';
import { isListLike } from 'hyparquet/src/schema.js';
import { signedBigInt } from './parquet-leaves.js';

const TEXT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const DAY_MS = 86_400_000;
const UNIT_DIGITS = { MILLIS: 3, MICROS: 6, NANOS: 9 } as const;

/**
 * A row of stored Parquet values (as parquet-group-read.ts reads them) as JSON text, lossless
 * where JSON can hold it: integers as their exact digits, decimals and instants as exact text,
 * floats that JSON has no number for as "NaN" and "±Infinity", bytes that are not text as
 * {"base64": ...}, lists as arrays and structs as objects.
 */
export function rowJson(columns: readonly SchemaTree[], row: ReadonlyMap<string, unknown>): string {
  return `{${columns.map((tree) => `${JSON.stringify(tree.element.name)}:${valueJson(tree, row.get(tree.element.name))}`).join(',')}}`;
}

function valueJson(tree: SchemaTree, value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (tree.children.length === 0) return leafJson(tree.element, value);
  if (isListLike(tree) && tree.children[0]!.children.length === 1) {
    const item = tree.children[0]!.children[0]!;
    return `[${(value as unknown[]).map((v) => valueJson(item, v)).join(',')}]`;
  }
  const struct = value as Record<string, unknown>;
  return `{${tree.children.map((child) => `${JSON.stringify(child.element.name)}:${valueJson(child, struct[child.element.name])}`).join(',')}}`;
}

function leafJson(element: SchemaElement, value: unknown): string {
  const logical = element.logical_type;
  if (element.converted_type === 'DECIMAL' || logical?.type === 'DECIMAL') return JSON.stringify(decimalText(unscaled(value), element.scale ?? (logical?.type === 'DECIMAL' ? logical.scale : 0)));
  if (element.type === 'INT96') return JSON.stringify(int96Text(value as Uint8Array));
  if (element.type === 'FLOAT' || element.type === 'DOUBLE') return numberJson(floatOf(value as Uint8Array));
  const unit = timestampUnit(element);
  if (unit) return JSON.stringify(instantText(BigInt(value as bigint), unit, logical?.type !== 'TIMESTAMP' || logical.isAdjustedToUTC));
  if (element.converted_type === 'DATE' || logical?.type === 'DATE') return JSON.stringify(new Date((value as number) * DAY_MS).toISOString().slice(0, 10));
  if (element.converted_type === 'UINT_32' || (logical?.type === 'INTEGER' && logical.bitWidth === 32 && !logical.isSigned)) return String((value as number) >>> 0);
  if (element.converted_type === 'UINT_64' || (logical?.type === 'INTEGER' && logical.bitWidth === 64 && !logical.isSigned)) return BigInt.asUintN(64, value as bigint).toString();
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return numberJson(value);
  if (typeof value === 'boolean') return String(value);
  return bytesJson(element, value as Uint8Array);
}

function bytesJson(element: SchemaElement, bytes: Uint8Array): string {
  const logical = element.logical_type?.type;
  if (logical === 'FLOAT16') return numberJson(parseFloat16(bytes) ?? Number.NaN);
  if (logical === 'UUID') return JSON.stringify(Buffer.from(bytes).toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'));
  const text = element.converted_type === 'UTF8' || element.converted_type === 'ENUM' || element.converted_type === 'JSON' || logical === 'STRING' || logical === 'ENUM' || logical === 'JSON';
  if (text) {
    try {
      return JSON.stringify(TEXT.decode(bytes));
    } catch {
      // Not UTF-8 after all: kept as bytes below.
    }
  }
  return `{"base64":${JSON.stringify(Buffer.from(bytes).toString('base64'))}}`;
}

/** Floats arrive as their bytes (parquet-leaves.ts, CARRIED_AS_BYTES). */
function floatOf(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return bytes.length === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true);
}

function numberJson(value: number): string {
  if (Number.isNaN(value)) return '"NaN"';
  if (!Number.isFinite(value)) return value > 0 ? '"Infinity"' : '"-Infinity"';
  return Object.is(value, -0) ? '-0' : String(value);
}

function unscaled(value: unknown): bigint {
  return value instanceof Uint8Array ? signedBigInt(value) : BigInt(value as number | bigint);
}

export function decimalText(unscaledValue: bigint, scale: number): string {
  const negative = unscaledValue < 0n;
  const digits = (negative ? -unscaledValue : unscaledValue).toString().padStart(scale + 1, '0');
  const whole = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${whole}` : whole;
}

function timestampUnit(element: SchemaElement): keyof typeof UNIT_DIGITS | undefined {
  if (element.converted_type === 'TIMESTAMP_MILLIS') return 'MILLIS';
  if (element.converted_type === 'TIMESTAMP_MICROS') return 'MICROS';
  return element.logical_type?.type === 'TIMESTAMP' ? element.logical_type.unit : undefined;
}

/** ISO 8601 with every digit of the unit; `Z` only for an instant (a wall clock has no zone). */
function instantText(count: bigint, unit: keyof typeof UNIT_DIGITS, utc: boolean): string {
  const digits = UNIT_DIGITS[unit];
  const perSecond = 10n ** BigInt(digits);
  let seconds = count / perSecond;
  let fraction = count % perSecond;
  if (fraction < 0n) {
    seconds -= 1n;
    fraction += perSecond;
  }
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, -5);
  return `${base}.${fraction.toString().padStart(digits, '0')}${utc ? 'Z' : ''}`;
}

/** INT96: nanoseconds of the day (8 bytes, little-endian), then the Julian day (4 bytes). */
function int96Text(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, 12);
  const nanos = view.getBigUint64(0, true);
  const days = BigInt(view.getInt32(8, true)) - 2_440_588n;
  return instantText(days * 86_400_000_000_000n + nanos, 'NANOS', true);
}
