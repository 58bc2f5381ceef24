import type { Compressors, PageHeader, SchemaElement } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import { hashByteRange } from '../checks/key-hash.js';
import { joinSegments } from '../checks/repeated-keys.js';
import type { ChunkToCheck } from './page-checks.js';
import { storedType } from './parquet-types.js';
import { UnreadableError } from './table-file.js';

/**
 * A top-level BYTE_ARRAY column of strings or bytes, whose stored bytes are its identity: not a
 * decimal (a number) or JSON (which hyparquet parses).
 */
export function keyHashable(element: SchemaElement): boolean {
  const kind = storedType(element).kind;
  return element.type === 'BYTE_ARRAY' && (kind === 'string' || kind === 'binary')
    && element.converted_type !== 'JSON' && element.logical_type?.type !== 'JSON';
}

/** One data page's decompressed parts: where each stream starts in `values`. */
interface PageParts {
  readonly entries: number;
  readonly levels: Uint8Array | undefined;
  readonly values: Uint8Array;
  readonly encoding: string | undefined;
}

/**
 * One 53-bit key hash per row of a string column chunk, NaN for null, computed from the page bytes
 * without a string or array per value: a grain column needs its values' identity, not the values.
 * Undefined when a page is encoded other than PLAIN or by dictionary, or compressed with a codec
 * not given: the caller then decodes the chunk as usual and hashes the values, which hash alike.
 * Memory grows page by page, with what the pages hold, not with what the footer claims.
 */
export function hashChunkKeys(chunk: ChunkToCheck, compressors: Compressors): Float64Array | undefined {
  const pages: Float64Array[] = [];
  let rows = 0;
  let dictionary: Float64Array | undefined;
  const reader = { view: new DataView(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength), offset: 0 };
  // As hyparquet's column reader: pages until the group's rows are covered or the bytes end.
  while (rows < chunk.groupRows && reader.offset < chunk.bytes.length - 1) {
    const header = parquetHeader(reader);
    const data = chunk.bytes.subarray(reader.offset, reader.offset + header.compressed_page_size);
    reader.offset += header.compressed_page_size;
    if (header.type === 'DICTIONARY_PAGE') {
      const page = decompress(chunk, data, header.uncompressed_page_size, compressors);
      if (!page) return undefined;
      dictionary = hashPlainValues(page, header.dictionary_page_header?.num_values ?? 0);
    } else if (header.type === 'DATA_PAGE' || header.type === 'DATA_PAGE_V2') {
      const parts = header.type === 'DATA_PAGE' ? partsV1(chunk, header, data, compressors) : partsV2(chunk, header, data, compressors);
      const hashes = parts && hashPage(parts, Math.min(parts.entries, chunk.groupRows - rows), dictionary);
      if (!hashes) return undefined;
      pages.push(hashes);
      rows += hashes.length;
    }
  }
  if (rows < chunk.groupRows) throw new UnreadableError(`column "${chunk.name}" has ${rows} values in a row group of ${chunk.groupRows} rows`);
  return joinSegments(pages);
}

function partsV1(chunk: ChunkToCheck, header: PageHeader, data: Uint8Array, compressors: Compressors): PageParts | undefined {
  const v1 = header.data_page_header!;
  const page = decompress(chunk, data, header.uncompressed_page_size, compressors);
  if (!page) return undefined;
  if (!chunk.defined) return { entries: v1.num_values, levels: undefined, values: page, encoding: v1.encoding };
  const reader = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 };
  const levels = new Uint8Array(v1.num_values);
  readRleBitPackedHybrid(reader, 1, levels); // length-prefixed in v1
  return { entries: v1.num_values, levels, values: page.subarray(reader.offset), encoding: v1.encoding };
}

/** v2 keeps its levels uncompressed ahead of the (maybe compressed) values. */
function partsV2(chunk: ChunkToCheck, header: PageHeader, data: Uint8Array, compressors: Compressors): PageParts | undefined {
  const v2 = header.data_page_header_v2!;
  const repetition = v2.repetition_levels_byte_length;
  const definition = v2.definition_levels_byte_length;
  let levels: Uint8Array | undefined;
  // v2 counts its nulls: with none, every level is 1 and need not be read.
  if (chunk.defined && v2.num_nulls !== 0) {
    levels = new Uint8Array(v2.num_values);
    readRleBitPackedHybrid({ view: new DataView(data.buffer, data.byteOffset, data.byteLength), offset: repetition }, 1, levels, definition);
  }
  const stored = data.subarray(chunk.defined ? repetition + definition : repetition);
  const size = header.uncompressed_page_size - repetition - definition;
  const values = v2.is_compressed !== false && size > 0 ? decompress(chunk, stored, size, compressors) : stored;
  return values && { entries: v2.num_values, levels, values, encoding: v2.encoding };
}

function decompress(chunk: ChunkToCheck, data: Uint8Array, size: number, compressors: Compressors): Uint8Array | undefined {
  if (chunk.meta.codec === 'UNCOMPRESSED') return data;
  const decode = compressors[chunk.meta.codec];
  return decode ? decode(data, size) : undefined;
}

/** One page's rows, NaN for null; undefined for an encoding this reader leaves to hyparquet. */
function hashPage(parts: PageParts, rows: number, dictionary: Float64Array | undefined): Float64Array | undefined {
  const stored = parts.levels ? countDefined(parts.levels, rows) : rows;
  let values: Float64Array;
  if (parts.encoding === 'PLAIN') values = hashPlainValues(parts.values, stored);
  else if (parts.encoding === 'PLAIN_DICTIONARY' || parts.encoding === 'RLE_DICTIONARY') values = lookUpIndices(parts.values, stored, dictionary);
  else return undefined;
  if (!parts.levels) return values;
  const out = new Float64Array(rows);
  for (let entry = 0, value = 0; entry < rows; entry++) out[entry] = parts.levels[entry] === 1 ? values[value++]! : NaN;
  return out;
}

function countDefined(levels: Uint8Array, entries: number): number {
  let count = 0;
  for (let i = 0; i < entries; i++) count += levels[i]!;
  return count;
}

/** The dictionary's hash for each stored value of a dictionary-encoded page. */
function lookUpIndices(values: Uint8Array, stored: number, dictionary: Float64Array | undefined): Float64Array {
  if (!dictionary) throw new UnreadableError('a dictionary-encoded page comes before any dictionary page');
  const width = values[0] ?? 0;
  const indices = new Uint32Array(stored);
  // A width of 0 means every index is 0.
  if (width > 0) readRleBitPackedHybrid({ view: new DataView(values.buffer, values.byteOffset, values.byteLength), offset: 1 }, width, indices, values.length - 1);
  const hashes = new Float64Array(stored);
  for (let i = 0; i < stored; i++) {
    const index = indices[i]!;
    if (index >= dictionary.length) throw new UnreadableError(`dictionary index ${index} is past the dictionary's ${dictionary.length} entries`);
    hashes[i] = dictionary[index]!;
  }
  return hashes;
}

/**
 * `count` PLAIN byte arrays, each a 4-byte little-endian length and then the bytes, hashed in
 * place from `cursor.at`, which is left after them (a page read in runs passes the same cursor).
 */
export function hashPlainValues(page: Uint8Array, count: number, cursor = { at: 0 }): Float64Array {
  // Each value takes at least its 4-byte length: a larger count is forged, and is not allocated.
  if (count * 4 > page.length - cursor.at) throw new UnreadableError(`a page of ${page.length} bytes cannot hold ${count} more values from byte ${cursor.at}`);
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  const hashes = new Float64Array(count);
  let at = cursor.at;
  for (let i = 0; i < count; i++) {
    if (at + 4 > page.length) throw new UnreadableError(`a page ends inside the length of value ${i}, at byte ${at}`);
    const start = at + 4;
    at = start + view.getUint32(at, true);
    if (at > page.length) throw new UnreadableError(`value ${i} runs ${at - page.length} bytes past the end of its page`);
    hashes[i] = hashByteRange(page, start, at);
  }
  cursor.at = at;
  return hashes;
}
