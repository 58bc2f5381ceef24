import type { DecodedArray, PageHeader } from 'hyparquet';
import type { ColumnDecoder } from 'hyparquet/src/types.js';
import { readPage } from 'hyparquet/src/column.js';
import { convert } from 'hyparquet/src/convert.js';
import { decompressPage } from 'hyparquet/src/datapage.js';
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import { RleCursor } from './rle-cursor.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { hashValue } from '../checks/key-hash.js';
import { hashPlainValues } from './parquet-key-hashes.js';
import { UnreadableError } from './table-file.js';

/**
 * A data page of a flat column whose values are decoded a run of rows at a time: writers such as
 * DuckDB put a whole row group of millions of values in one page, and decoding it at once would
 * hold a JS value per row. Definition levels (a byte a row) are read up front; PLAIN values and
 * dictionary indices (see rle-cursor.ts) are decoded as they are taken. Other encodings (delta,
 * byte stream split, PLAIN booleans, which are bit-packed) decode whole with hyparquet and are
 * handed out in runs.
 *
 * A key column the engine needs only the identity of (see BatchOptions.hashOnly) is taken as key
 * hashes instead, NaN for null: PLAIN strings are hashed from the page bytes, without a string.
 */
export interface SlicedPage {
  /** Rows not yet taken. */
  readonly left: number;
  /** The next `count` rows (at most `left`): values, null where a row has none. */
  take(count: number): ArrayLike<unknown>;
}

type ValueRun = (count: number) => ArrayLike<unknown>;

/** The dictionary a page's indices point into, decoded, and (when asked for) its values' hashes. */
export interface PageDictionary {
  readonly values: DecodedArray;
  hashes(): Float64Array;
}

export function slicedPage(header: PageHeader, data: Uint8Array, decoder: ColumnDecoder, dictionary: PageDictionary | undefined, hashed: boolean): SlicedPage {
  const parts = pageParts(header, data, decoder);
  const values = parts && (hashed ? hashRun(parts, decoder, dictionary) : valueRun(parts, decoder, dictionary?.values));
  if (!parts || !values) return wholePage(header, data, decoder, dictionary?.values, hashed);
  const { levels, rows } = parts;
  let at = 0;
  return {
    get left() {
      return rows - at;
    },
    take(count) {
      const from = at;
      at += count;
      if (!levels) return values(count);
      let stored = 0;
      for (let i = from; i < at; i++) stored += levels[i]!;
      const present = values(stored);
      const out = hashed ? new Float64Array(count) : new Array<unknown>(count);
      const none = hashed ? NaN : null;
      for (let i = 0, next = 0; i < count; i++) out[i] = levels[from + i] ? present[next++] : none;
      return out;
    },
  };
}

interface PageParts {
  readonly rows: number;
  /** 1 where a row has a value; absent when every row has one. */
  readonly levels: Uint8Array | undefined;
  readonly stored: number;
  readonly values: Uint8Array;
  readonly encoding: string | undefined;
}

/** Levels and the value bytes of a v1 or v2 page; undefined for a page left to hyparquet. */
function pageParts(header: PageHeader, data: Uint8Array, decoder: ColumnDecoder): PageParts | undefined {
  const defined = decoder.element.repetition_type !== 'REQUIRED';
  if (decoder.schemaPath.length !== 2 || decoder.type === 'BOOLEAN') return undefined;
  if (header.type === 'DATA_PAGE' && header.data_page_header) {
    const rows = header.data_page_header.num_values;
    const page = decompressPage(data, header.uncompressed_page_size, decoder.codec, decoder.compressors);
    if (!defined) return { rows, levels: undefined, stored: rows, values: page, encoding: header.data_page_header.encoding };
    const reader = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 };
    const levels = new Uint8Array(rows);
    readRleBitPackedHybrid(reader, 1, levels); // length-prefixed in v1
    return { rows, levels, stored: countOnes(levels), values: page.subarray(reader.offset), encoding: header.data_page_header.encoding };
  }
  const v2 = header.data_page_header_v2;
  if (header.type !== 'DATA_PAGE_V2' || !v2) return undefined;
  const { num_values: rows, repetition_levels_byte_length: repetition, definition_levels_byte_length: definition } = v2;
  let levels: Uint8Array | undefined;
  if (defined && v2.num_nulls !== 0) {
    levels = new Uint8Array(rows);
    readRleBitPackedHybrid({ view: new DataView(data.buffer, data.byteOffset, data.byteLength), offset: repetition }, 1, levels, definition);
  }
  const size = header.uncompressed_page_size - repetition - definition;
  // As hyparquet and the page guard read it: a REQUIRED column's values start after the repetition levels.
  const stored = data.subarray(defined ? repetition + definition : repetition);
  const values = v2.is_compressed !== false && size > 0 ? decompressPage(stored, size, decoder.codec, decoder.compressors) : stored;
  return { rows, levels, stored: rows - v2.num_nulls, values, encoding: v2.encoding };
}

/** Hands out the stored (non-null) values in order, or undefined for an encoding not sliced here. */
function valueRun(parts: PageParts, decoder: ColumnDecoder, dictionary: DecodedArray | undefined): ValueRun | undefined {
  const { values, encoding } = parts;
  const reader = { view: new DataView(values.buffer, values.byteOffset, values.byteLength), offset: 0 };
  // Without its compressors: they hold the page's compressed bytes, which the run has no use for.
  const converting: ColumnDecoder = { ...decoder, compressors: {} };
  if (encoding === 'PLAIN') return (count) => convert(readPlain(reader, converting.type, count, converting.element.type_length), converting);
  if (encoding !== 'PLAIN_DICTIONARY' && encoding !== 'RLE_DICTIONARY' && encoding !== 'RLE') return undefined;
  if (!dictionary) throw new UnreadableError('a dictionary-encoded page comes before any dictionary page');
  return lookUp(parts, dictionary, (count) => new Array<unknown>(count));
}

/** Like valueRun, as key hashes; undefined for an encoding not sliced here. */
function hashRun(parts: PageParts, decoder: ColumnDecoder, dictionary: PageDictionary | undefined): ValueRun | undefined {
  const { values, encoding } = parts;
  if (encoding === 'PLAIN' && decoder.type === 'BYTE_ARRAY') return plainByteArrayHashes(values);
  if (encoding !== 'PLAIN_DICTIONARY' && encoding !== 'RLE_DICTIONARY') return undefined;
  if (!dictionary) throw new UnreadableError('a dictionary-encoded page comes before any dictionary page');
  return lookUp(parts, dictionary.hashes(), (count) => new Float64Array(count));
}

/** Dictionary indices, read a run at a time from the page bytes, looked up as they are taken. */
function lookUp<T extends ArrayLike<unknown> & { [i: number]: unknown }>(parts: PageParts, dictionary: ArrayLike<unknown>, make: (count: number) => T): ValueRun {
  const { values } = parts;
  const width = values[0] ?? 0;
  // A width of 0 means every index is 0.
  const cursor = width > 0 ? new RleCursor(values, 1, width) : undefined;
  let indices = new Uint32Array(0);
  return (count) => {
    if (indices.length < count) indices = new Uint32Array(count);
    if (cursor) cursor.read(indices, 0, count);
    const out = make(count);
    for (let i = 0; i < count; i++) {
      const index = indices[i]!;
      if (index >= dictionary.length) throw new UnreadableError(`dictionary index ${index} is past the dictionary's ${dictionary.length} entries`);
      out[i] = dictionary[index];
    }
    return out;
  };
}

/** PLAIN byte arrays hashed in place, a run at a time. */
function plainByteArrayHashes(page: Uint8Array): ValueRun {
  const cursor = { at: 0 };
  return (count) => hashPlainValues(page, count, cursor);
}

/** hyparquet decodes the page whole (nulls in place); runs are cut from that. */
function wholePage(header: PageHeader, data: Uint8Array, decoder: ColumnDecoder, dictionary: DecodedArray | undefined, hashed: boolean): SlicedPage {
  const reader = { view: new DataView(data.buffer, data.byteOffset, data.byteLength), offset: 0 };
  const values = readPage(reader, header, decoder, dictionary, undefined, 0).data ?? [];
  const decoded = hashed ? Float64Array.from(values, (value) => (value === null || value === undefined ? NaN : hashValue(value))) : values;
  let at = 0;
  return {
    get left() {
      return decoded.length - at;
    },
    take(count) {
      at += count;
      return decoded.slice(at - count, at);
    },
  };
}

function countOnes(levels: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < levels.length; i++) count += levels[i]!;
  return count;
}
