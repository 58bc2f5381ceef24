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
    else if (raw instanceof Uint8Array) out[i] = unitsValue(bytesToBigInt(raw), scale, factor, divides);
    else out[i] = raw;
  }
  return out;
}

function unitsValue(units: bigint, scale: number, factor: number, divides: boolean): unknown {
  const n = Number(units);
  return divides && n > -1e15 && n < 1e15 ? n / factor : decimalValue(units, scale);
}

/** Big-endian two's complement, as Parquet stores FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY decimals. */
export function bytesToBigInt(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return bytes[0]! & 0x80 ? value - (1n << BigInt(bytes.length * 8)) : value;
}
