import { parquetMetadata, type FileMetaData, type ParquetParsers, type SchemaElement } from 'hyparquet';
import { markGeoColumns } from 'hyparquet/src/geoparquet.js';
import { describeError } from '../errors.js';
import type { ByteSource } from './byte-source.js';
import { checkFooter } from './footer-checks.js';
import { fillConvertedTypes } from './schema-annotations.js';
import { formatBytes, MAX_FOOTER_BYTES } from './parquet-limits.js';
import { UnreadableError } from './table-file.js';
import { checkFooterSize } from './thrift-budget.js';

/** A checked footer and its top-level schema elements by name (the first wins, as in hyparquet). */
export interface ParquetFileInfo {
  readonly metadata: FileMetaData;
  readonly elements: ReadonlyMap<string, SchemaElement>;
}

/** Footers of files with a few hundred columns fit; larger ones cost a second read. */
const FOOTER_GUESS = 64 * 1024;
/** "PAR1" at both ends, and the footer length before the last one. */
const MAGIC = 0x31524150;
const SMALLEST_FILE = 12;

/**
 * Reads and checks a Parquet footer. Its stated length is checked against the file and a limit
 * before it is fetched, its size in values before it is parsed, and what it says (schema, row
 * groups, where chunks lie) before any data is read, so every later allocation rests on numbers
 * already found sane. Every failure is an UnreadableError naming what is wrong.
 */
export async function readFooter(source: ByteSource, parsers: Partial<ParquetParsers>): Promise<FileMetaData> {
  const size = source.byteLength;
  if (size < SMALLEST_FILE) throw new UnreadableError(`not a Parquet file: ${size} bytes is shorter than the smallest Parquet file`);
  const tailStart = Math.max(0, size - FOOTER_GUESS);
  const tail = new Uint8Array(await source.slice(tailStart, size));
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  if (tail.length !== size - tailStart || view.getUint32(tail.length - 4, true) !== MAGIC) {
    throw new UnreadableError('cannot read the Parquet footer: the file does not end with the Parquet magic "PAR1"');
  }
  const length = view.getUint32(tail.length - 8, true);
  if (length > size - SMALLEST_FILE) {
    throw new UnreadableError(`cannot read the Parquet footer: it claims ${length} bytes but the file has only ${size - SMALLEST_FILE} bytes for it`);
  }
  if (length > MAX_FOOTER_BYTES) throw new UnreadableError(`cannot read the Parquet footer: it is ${formatBytes(length)}, over the ${formatBytes(MAX_FOOTER_BYTES)} footer limit`);
  const footer = await footerBytes(source, tail, length);
  checkFooterSize(footer.subarray(0, length));
  let metadata: FileMetaData;
  try {
    // GeoParquet marking walks the schema by its child counts, looping forever on a negative one,
    // so it runs only after checkFooter has found the schema a well-formed tree.
    metadata = parquetMetadata(footer, { parsers, geoparquet: false });
  } catch (error) {
    throw new UnreadableError(`cannot read the Parquet footer: ${reason(error)}`, { cause: error });
  }
  checkFooter(metadata, size - 8 - length);
  fillConvertedTypes(metadata.schema);
  try {
    markGeoColumns(metadata.schema, metadata.key_value_metadata);
  } catch (error) {
    throw new UnreadableError(`cannot read the Parquet footer's GeoParquet metadata: ${reason(error)}`, { cause: error });
  }
  return metadata;
}

/** The footer and the 8 bytes after it, from the tail already read or one more read. */
async function footerBytes(source: ByteSource, tail: Uint8Array, length: number): Promise<Uint8Array> {
  if (length + 8 <= tail.length) return tail.subarray(tail.length - length - 8);
  const start = source.byteLength - length - 8;
  const head = new Uint8Array(await source.slice(start, source.byteLength - tail.length));
  const footer = new Uint8Array(length + 8);
  footer.set(head);
  footer.set(tail, head.length);
  return footer;
}

export function reason(error: unknown): string {
  return describeError(error).replace(/^parquet /, '');
}
