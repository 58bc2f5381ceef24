import type { FileMetaData, SchemaElement } from 'hyparquet';
import type { ColumnDecoder, DecodedArray } from 'hyparquet/src/types.js';
import { convert as convertValues } from 'hyparquet/src/convert.js';
import { decimalValue } from '../contract/exact-value.js';

/**
 * Decimals as exact values. hyparquet turns a DECIMAL's unscaled integer into a double, which
 * past 15 digits is another number (DECIMAL(38,10) 1000000.0000000001 reads as 1000000). Here
 * the unscaled integer becomes the canonical value of exact-value.ts: the same double where 15
 * digits hold it, an ExactValue with every digit otherwise.
 */
export function isDecimal(element: SchemaElement): boolean {
  return element.converted_type === 'DECIMAL';
}

/** hyparquet's convert, but exact for decimals. */
export function convert(data: DecodedArray, decoder: ColumnDecoder): DecodedArray {
  return isDecimal(decoder.element) ? decimalValues(data, decoder.element.scale ?? 0) : convertValues(data, decoder);
}

/** An element hyparquet leaves unconverted (raw unscaled integers), for decoding it converts itself. */
export function rawDecimalElement(element: SchemaElement): SchemaElement {
  return isDecimal(element) ? { ...element, converted_type: undefined } : element;
}

const rawSchemas = new WeakMap<FileMetaData, FileMetaData>();

/** The file's metadata with its decimal leaves unconverted, for hyparquet's own reader (parquetRead). */
export function rawDecimalMetadata(metadata: FileMetaData): FileMetaData {
  if (!metadata.schema.some(isDecimal)) return metadata;
  let raw = rawSchemas.get(metadata);
  if (!raw) rawSchemas.set(metadata, (raw = { ...metadata, schema: metadata.schema.map(rawDecimalElement) }));
  return raw;
}

/** Unscaled integers (INT32, INT64, or big-endian two's complement bytes), nulls kept, as values. */
export function decimalValues(data: ArrayLike<unknown>, scale: number): unknown[] {
  const out = new Array<unknown>(data.length);
  const factor = 10 ** scale;
  // Below 10^15 the unscaled integer is an exact double, and one division by an exact power of
  // ten (scale <= 22) is the correctly rounded value: the canonical number.
  const divides = scale <= 22;
  for (let i = 0; i < data.length; i++) {
    const raw = data[i];
    if (typeof raw === 'number') out[i] = divides ? raw / factor : decimalValue(BigInt(raw), scale);
    else if (typeof raw === 'bigint') out[i] = unitsValue(raw, scale, factor, divides);
    else if (raw instanceof Uint8Array) out[i] = bytesValue(raw, scale, factor, divides);
    else out[i] = raw;
  }
  return out;
}

function unitsValue(units: bigint, scale: number, factor: number, divides: boolean): unknown {
  const n = Number(units);
  return divides && n > -1e15 && n < 1e15 ? n / factor : decimalValue(units, scale);
}

/** A FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY decimal: in doubles when its unscaled integer fits 48 bits (most do), through a bigint otherwise. */
function bytesValue(bytes: Uint8Array, scale: number, factor: number, divides: boolean): unknown {
  const units = smallUnits(bytes);
  return units !== undefined && divides ? units / factor : unitsValue(bytesToBigInt(bytes), scale, factor, divides);
}

/** The unscaled integer when its bytes before the last six only repeat the sign (|units| < 2^48), else undefined. */
function smallUnits(bytes: Uint8Array): number | undefined {
  const length = bytes.length;
  if (length === 0) return 0;
  const sign = bytes[0]! & 0x80 ? 0xff : 0;
  const low = Math.max(0, length - 6);
  for (let i = 0; i < low; i++) if (bytes[i] !== sign) return undefined;
  let units = 0;
  for (let i = low; i < length; i++) units = units * 256 + bytes[i]!;
  return sign ? units - 2 ** (8 * (length - low)) : units;
}

/** Big-endian two's complement, as Parquet stores FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY decimals. */
export function bytesToBigInt(bytes: Uint8Array): bigint {
  const length = bytes.length;
  if (length === 0) return 0n;
  // Eight bytes a step where whole words remain: a 16-byte DECIMAL(38,x) takes 2 steps, not 16.
  const words = new DataView(bytes.buffer, bytes.byteOffset, length);
  const head = length % 8;
  let value = 0n;
  for (let i = 0; i < head; i++) value = (value << 8n) | BigInt(bytes[i]!);
  for (let i = head; i < length; i += 8) value = (value << 64n) | words.getBigUint64(i);
  return bytes[0]! & 0x80 ? value - (1n << BigInt(length * 8)) : value;
}
