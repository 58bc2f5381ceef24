import type { ColumnMetaData, Compressors, FileMetaData, ParquetParsers } from 'hyparquet';
import type { ColumnDecoder } from 'hyparquet/src/types.js';
import { DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { getSchemaPath } from 'hyparquet/src/schema.js';
import { decimalValue } from '../contract/exact-value.js';

/** A value's leading U+FEFF is data: only a stream's first bytes can be a byte-order mark. */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * How values decode: timestamps and dates stay numbers (epoch ms), since a Date per value costs
 * memory and time, and a timestamp finer than a double holds is an ExactValue of ms at its
 * stored unit (exact-value.ts); strings keep every character (hyparquet's default decoder drops
 * a leading U+FEFF from each value, so "\uFEFFpaid" would pass `enum: [paid]`).
 */
export const NUMERIC_TIME: Partial<ParquetParsers> = {
  timestampFromMilliseconds: (millis) => Number(millis),
  timestampFromMicroseconds: (micros) => subMillis(micros, 1_000, 3),
  timestampFromNanoseconds: (nanos) => subMillis(nanos, 1_000_000, 6),
  dateFromDays: (days) => days * 86_400_000,
  stringFromBytes: (bytes) => bytes && UTF8.decode(bytes),
};

/** Whole ms as a number; a count of finer units otherwise exactly (its canonical value). */
function subMillis(count: bigint, perMilli: number, scale: number): number | ReturnType<typeof decimalValue> {
  const n = Number(count);
  if (Number.isSafeInteger(n) && n % perMilli === 0) return n / perMilli;
  return decimalValue(BigInt(count), scale);
}

/**
 * How hyparquet decodes one column's pages as we read them: numeric time, bytes as bytes unless
 * annotated as text; with `rawText`, text as its UTF-8 bytes too, for a caller that only compares.
 */
export function columnDecoder(metadata: FileMetaData, meta: ColumnMetaData, compressors: Compressors, { rawText = false } = {}): ColumnDecoder | undefined {
  const schemaPath = getSchemaPath(metadata.schema, meta.path_in_schema);
  const element = schemaPath.at(-1)?.element;
  if (!element) return undefined;
  return {
    pathInSchema: meta.path_in_schema, type: meta.type, element, schemaPath, codec: meta.codec,
    parsers: { ...DEFAULT_PARSERS, ...NUMERIC_TIME, ...(rawText ? { stringFromBytes: (bytes: Uint8Array) => bytes } : {}) }, compressors, utf8: false,
  };
}
