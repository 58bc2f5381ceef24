import type { ColumnDecoder } from 'hyparquet/src/types.js';
import { readPlain } from 'hyparquet/src/plain.js';
import type { ByteWindow } from './byte-window.js';
import { convert } from './exact-decimals.js';
import { taken } from './page-value-runs.js';

/**
 * How a PLAIN fixed-width column's stored values become the numbers the engine checks, read
 * straight from the page bytes into a Float64Array (see column-vector.ts): the same doubles
 * hyparquet's decoding and NUMERIC_TIME (column-decoder.ts) give, without a JS value or BigInt
 * per row. `int64` and the finer timestamps are numbers only where exact; a run holding one that
 * is not falls back to hyparquet's values (bigint, ExactValue) for that run.
 */
export type NumberForm = 'int32' | 'uint32' | 'days' | 'int64' | 'millis' | 'micros' | 'nanos' | 'float' | 'double' | 'decimal32' | 'decimal64';

/** Annotations hyparquet's convert turns into something other than the stored number (or that it refuses). */
const OTHER_CONVERTED = new Set(['DECIMAL', 'JSON', 'BSON', 'INTERVAL', 'UTF8', 'UINT_64', 'ENUM']);
const OTHER_LOGICAL = new Set(['DECIMAL', 'GEOMETRY', 'GEOGRAPHY', 'UUID', 'STRING', 'FLOAT16', 'JSON', 'BSON', 'ENUM', 'VARIANT']);

/** The form of a flat column's values, or undefined where its values are not plain numbers (decimals, unsigned 64-bit, INT96). */
export function numberForm(decoder: ColumnDecoder): NumberForm | undefined {
  const { type, element } = decoder;
  const converted = element.converted_type;
  const logical = element.logical_type;
  // exact-decimals.ts divides the unscaled integer by 10^scale up to a scale of 22.
  if (converted === 'DECIMAL') return decoder.schemaPath.length === 2 && (element.scale ?? 0) <= 22 ? (type === 'INT32' ? 'decimal32' : type === 'INT64' ? 'decimal64' : undefined) : undefined;
  if (decoder.schemaPath.length !== 2 || (converted && OTHER_CONVERTED.has(converted)) || (logical && OTHER_LOGICAL.has(logical.type))) return undefined;
  if (logical?.type === 'INTEGER' && logical.bitWidth === 64 && !logical.isSigned) return undefined;
  // In the order hyparquet's convert tests them: a converted type before a logical one.
  if (type === 'INT32') {
    if (converted === 'DATE') return 'days';
    if (converted === 'UINT_32' || (logical?.type === 'INTEGER' && logical.bitWidth === 32 && !logical.isSigned)) return 'uint32';
    return logical?.type === 'TIMESTAMP' ? undefined : 'int32';
  }
  if (type === 'INT64') {
    if (converted === 'TIMESTAMP_MILLIS') return 'millis';
    if (converted === 'TIMESTAMP_MICROS') return 'micros';
    if (logical?.type === 'TIMESTAMP') return logical.unit === 'MILLIS' ? 'millis' : logical.unit === 'MICROS' ? 'micros' : 'nanos';
    return 'int64';
  }
  if (type === 'FLOAT' || type === 'DOUBLE') return converted || logical ? undefined : type === 'FLOAT' ? 'float' : 'double';
  return undefined;
}

/** A run of stored values: numbers when every one is exact as a double, else the values as hyparquet's reading gives them. */
export type NumberRunResult = { readonly exact: true; readonly values: Float64Array } | { readonly exact: false; readonly values: ArrayLike<unknown> };

const BYTES: Record<NumberForm, number> = { int32: 4, uint32: 4, days: 4, float: 4, decimal32: 4, int64: 8, millis: 8, micros: 8, nanos: 8, double: 8, decimal64: 8 };

/** Reads the next `count` stored PLAIN values of a column of this form from the window. */
export function numberRun(window: ByteWindow, form: NumberForm, decoder: ColumnDecoder): (count: number) => Promise<NumberRunResult> {
  // Without its compressors: they hold the page's compressed bytes, which the run has no use for.
  const converting: ColumnDecoder = { ...decoder, compressors: {} };
  return async (count) => {
    // A view, decoded before the window is filled again.
    const { view } = await taken(window, count * BYTES[form], false);
    const values = new Float64Array(count);
    if (decodeNumbers(view, form, values, 10 ** (decoder.element.scale ?? 0))) return { exact: true, values };
    // A copy: hyparquet's values may be views of the bytes, which a streamed window reuses.
    const copy = new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
    const reader = { view: new DataView(copy.buffer), offset: 0 };
    return { exact: false, values: convert(readPlain(reader, decoder.type, count, decoder.element.type_length), converting) };
  };
}

/** Fills `out` with the values' doubles; false when one has none exactly (the engine holds it as a bigint or ExactValue). */
function decodeNumbers(view: DataView, form: NumberForm, out: Float64Array, factor: number): boolean {
  const count = out.length;
  // A decimal's unscaled integer over 10^scale, as exact-decimals.ts makes the canonical number.
  if (form === 'decimal32') for (let i = 0; i < count; i++) out[i] = view.getInt32(i * 4, true) / factor;
  else if (form === 'decimal64') return smallDecimals(view, out, factor);
  else if (form === 'int32') for (let i = 0; i < count; i++) out[i] = view.getInt32(i * 4, true);
  else if (form === 'uint32') for (let i = 0; i < count; i++) out[i] = view.getUint32(i * 4, true);
  else if (form === 'days') for (let i = 0; i < count; i++) out[i] = view.getInt32(i * 4, true) * 86_400_000;
  else if (form === 'float') for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
  else if (form === 'double') for (let i = 0; i < count; i++) out[i] = view.getFloat64(i * 8, true);
  // hi * 2^32 is exact and adding lo rounds once: the double Number(bigint) gives, as NUMERIC_TIME takes it.
  else if (form === 'millis') for (let i = 0; i < count; i++) out[i] = view.getInt32(i * 8 + 4, true) * 4_294_967_296 + view.getUint32(i * 8, true);
  else if (form === 'int64') return safeIntegers(view, out);
  else return wholeMillis(view, out, form === 'micros' ? 1_000 : 1_000_000);
  return true;
}

/** INT64 as a number only within ±(2^53 - 1), where a bigint becomes one exactly (asSafeNumber, hashValue). */
function safeIntegers(view: DataView, out: Float64Array): boolean {
  for (let i = 0; i < out.length; i++) {
    // Rounding is monotone and 2^53 is a double: a value beyond the safe range never rounds into it.
    const value = view.getInt32(i * 8 + 4, true) * 4_294_967_296 + view.getUint32(i * 8, true);
    if (value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER) return false;
    out[i] = value;
  }
  return true;
}

/** As exact-decimals.ts: below 10^15 units, a double divided once; an ExactValue beyond. */
function smallDecimals(view: DataView, out: Float64Array, factor: number): boolean {
  for (let i = 0; i < out.length; i++) {
    const units = view.getInt32(i * 8 + 4, true) * 4_294_967_296 + view.getUint32(i * 8, true);
    if (!(units > -1e15 && units < 1e15)) return false;
    out[i] = units / factor;
  }
  return true;
}

/**
 * A finer timestamp is a number of ms where it is a whole ms below 10^15 ms, as NUMERIC_TIME and
 * decimalValue decide (trailing zeros stripped, then a number below 10^15); else the run is left
 * to them. A count of ns is past 2^53 for any recent time, so the whole ms are found exactly
 * from the two halves: 2^32 = q * perMilli + rem, so count = hi * q * perMilli + (hi * rem + lo),
 * each part exact in a double.
 */
function wholeMillis(view: DataView, out: Float64Array, perMilli: number): boolean {
  const q = Math.floor(4_294_967_296 / perMilli);
  const rem = 4_294_967_296 - q * perMilli;
  for (let i = 0; i < out.length; i++) {
    const hi = view.getInt32(i * 8 + 4, true);
    const low = hi * rem + view.getUint32(i * 8, true);
    const high = hi * q;
    if (low % perMilli !== 0 || high > Number.MAX_SAFE_INTEGER || high < -Number.MAX_SAFE_INTEGER) return false;
    const millis = high + low / perMilli;
    if (!(millis > -1e15 && millis < 1e15)) return false;
    out[i] = millis;
  }
  return true;
}
