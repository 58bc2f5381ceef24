import type { DecodedArray, ParquetType } from 'hyparquet';
import type { ColumnDecoder } from 'hyparquet/src/types.js';
import { convert } from './exact-decimals.js';
import { readPlain } from 'hyparquet/src/plain.js';
import type { ByteWindow } from './byte-window.js';
import { hashByteRange } from '../checks/key-hash.js';
import { RleCursor } from './rle-cursor.js';
import { UnreadableError } from './table-file.js';

/**
 * The stored (non-null) values of a data page, read from its value bytes a run at a time as they
 * are taken: PLAIN values as they come, dictionary indices through an RleCursor and looked up.
 * The bytes are a window (see byte-window.ts), whole or streamed: a run fills what it reads first.
 */
export type ValueRun = (count: number, wanted?: Uint8Array) => Promise<ArrayLike<unknown>>;

/** The dictionary a page's indices point into, decoded, and (when asked for) its values' hashes. */
export interface PageDictionary {
  readonly values: DecodedArray;
  hashes(): Float64Array;
}

const DICTIONARY_ENCODINGS = new Set(['PLAIN_DICTIONARY', 'RLE_DICTIONARY']);

/** Whether a page of this encoding holds indices into the chunk's dictionary. */
export function dictionaryEncoded(encoding: string | undefined): boolean {
  return DICTIONARY_ENCODINGS.has(encoding ?? '');
}

/** Whether values of this encoding are read here (the rest are decoded whole by hyparquet). */
export function runsRead(encoding: string | undefined, decoder: ColumnDecoder, hashed: boolean): boolean {
  if (encoding === 'PLAIN') return !hashed || decoder.type === 'BYTE_ARRAY';
  return DICTIONARY_ENCODINGS.has(encoding ?? '') || (!hashed && encoding === 'RLE');
}

/** Values as the engine takes them; `runsRead` must hold for the encoding. */
export function valueRun(window: ByteWindow, encoding: string | undefined, decoder: ColumnDecoder, dictionary: DecodedArray | undefined): ValueRun {
  // Without its compressors: they hold the page's compressed bytes, which the run has no use for.
  const converting: ColumnDecoder = { ...decoder, compressors: {} };
  if (encoding !== 'PLAIN') return lookUp(window, dictionary, (count) => new Array<unknown>(count));
  const { type, element } = converting;
  // Values are read from a copy: readPlain makes views, and a streamed window reuses its bytes.
  if (type === 'BYTE_ARRAY') {
    return async (count, wanted) => (wanted ? convert(await pickedByteArrays(window, count, wanted), converting) : convert(readPlain(await byteArrays(window, count, true), type, count, undefined), converting));
  }
  const size = type === 'FIXED_LEN_BYTE_ARRAY' ? (element.type_length ?? 0) : (PLAIN_BYTES[type] ?? 0);
  return async (count) => convert(readPlain(await taken(window, count * size, true), type, count, element.type_length), converting);
}

/** Like valueRun, as key hashes (PLAIN byte arrays hashed from the bytes, without a string). */
export function hashRun(window: ByteWindow, encoding: string | undefined, dictionary: PageDictionary | undefined): ValueRun {
  if (encoding !== 'PLAIN') return lookUp(window, dictionary?.hashes(), (count) => new Float64Array(count));
  return (count) => hashByteArrays(window, count);
}

/**
 * The next `count` PLAIN byte arrays hashed in one walk over their bytes, each hashed where it
 * lies: a whole page needs no fill, a streamed one fills when a value runs past what is made.
 */
async function hashByteArrays(window: ByteWindow, count: number): Promise<Float64Array> {
  const hashes = new Float64Array(count);
  for (let i = 0; i < count;) {
    const { bytes, end } = window;
    let at = window.at;
    // As many values as lie whole in the window, without an await.
    for (; i < count && at + 4 <= end; i++) {
      const start = at + 4;
      const stop = start + bytes[at]! + bytes[at + 1]! * 2 ** 8 + bytes[at + 2]! * 2 ** 16 + bytes[at + 3]! * 2 ** 24;
      if (stop > end) break;
      hashes[i] = hashByteRange(bytes, start, stop);
      at = stop;
    }
    window.at = at;
    if (i < count) await fillNextValue(window, i);
  }
  return hashes;
}

/** Makes the whole next value available, or says where the page ends inside it. */
async function fillNextValue(window: ByteWindow, index: number): Promise<void> {
  if (window.end - window.at < 4) await window.fill(4);
  if (window.end - window.at < 4) throw new UnreadableError(`a page ends inside the length of value ${index} of a run`);
  const { bytes, at } = window;
  const span = 4 + bytes[at]! + bytes[at + 1]! * 2 ** 8 + bytes[at + 2]! * 2 ** 16 + bytes[at + 3]! * 2 ** 24;
  if (window.end - at < span) await window.fill(span);
  if (window.end - window.at < span) throw new UnreadableError(`value ${index} of a run goes ${span - (window.end - window.at)} bytes past the end of its page`);
}

/**
 * The next `count` PLAIN byte arrays, copied only where `wanted` is 1 (undefined elsewhere): a
 * re-read for a few keys walks the lengths of the rest without making a value of them.
 */
async function pickedByteArrays(window: ByteWindow, count: number, wanted: Uint8Array): Promise<(Uint8Array | undefined)[]> {
  const out = new Array<Uint8Array | undefined>(count);
  for (let i = 0; i < count;) {
    const { bytes, end } = window;
    let at = window.at;
    for (; i < count && at + 4 <= end; i++) {
      const start = at + 4;
      const stop = start + bytes[at]! + bytes[at + 1]! * 2 ** 8 + bytes[at + 2]! * 2 ** 16 + bytes[at + 3]! * 2 ** 24;
      if (stop > end) break;
      if (wanted[i] === 1) out[i] = bytes.slice(start, stop);
      at = stop;
    }
    window.at = at;
    if (i < count) await fillNextValue(window, i);
  }
  return out;
}

/** Bytes a PLAIN value of a fixed-size type takes (booleans are bit-packed and not read here). */
const PLAIN_BYTES: Partial<Record<ParquetType, number>> = { INT32: 4, FLOAT: 4, INT64: 8, DOUBLE: 8, INT96: 12 };

/** The next `length` bytes (a copy, or a view valid until the next fill) as hyparquet's reader; the window stands after them. */
export async function taken(window: ByteWindow, length: number, copy: boolean): Promise<{ view: DataView; offset: number }> {
  if (window.end - window.at < length) await window.fill(length);
  if (window.end - window.at < length) throw new UnreadableError(`a page ends ${length - (window.end - window.at)} bytes short of its values`);
  const bytes = copy ? window.bytes.slice(window.at, window.at + length) : window.bytes.subarray(window.at, window.at + length);
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  window.at += length;
  return { view, offset: 0 };
}

/** The bytes of the next `count` PLAIN byte arrays (each a 4-byte length and its bytes), found by their lengths. */
async function byteArrays(window: ByteWindow, count: number, copy: boolean): Promise<{ view: DataView; offset: number }> {
  let span = 0;
  for (let i = 0; i < count; i++) {
    if (window.end - window.at < span + 4) await window.fill(span + 4);
    if (window.end - window.at < span + 4) throw new UnreadableError(`a page ends inside the length of a value, ${span} bytes into a run`);
    const { bytes } = window;
    const at = window.at + span;
    span += 4 + bytes[at]! + bytes[at + 1]! * 2 ** 8 + bytes[at + 2]! * 2 ** 16 + bytes[at + 3]! * 2 ** 24;
    if (window.end - window.at < span) await window.fill(span);
    if (window.end - window.at < span) throw new UnreadableError(`a value runs ${span - (window.end - window.at)} bytes past the end of its page`);
  }
  return taken(window, span, copy);
}

/** Dictionary indices (a bit width byte, then runs), read a run at a time and looked up. */
function lookUp<T extends ArrayLike<unknown> & { [i: number]: unknown }>(window: ByteWindow, dictionary: ArrayLike<unknown> | undefined, make: (count: number) => T): ValueRun {
  const read = indexRun(window, dictionary?.length);
  let indices = new Int32Array(0);
  return async (count) => {
    if (indices.length < count) indices = new Int32Array(count);
    await read(indices, 0, count);
    const out = make(count);
    for (let i = 0; i < count; i++) out[i] = dictionary![indices[i]!];
    return out;
  };
}

/** Writes the next `count` dictionary indices at `out[from]`, each checked to lie in the dictionary. */
export type IndexRun = (out: Int32Array, from: number, count: number) => Promise<void>;

/** A dictionary-encoded page's indices (a bit width byte, then runs), read a run at a time. */
export function indexRun(window: ByteWindow, entries: number | undefined): IndexRun {
  if (entries === undefined) throw new UnreadableError('a dictionary-encoded page comes before any dictionary page');
  let cursor: Promise<RleCursor | undefined> | undefined;
  return async (out, from, count) => {
    cursor ??= indexCursor(window);
    const reading = await cursor;
    // A width of 0 (or no bytes at all) means every index is 0.
    if (reading) await reading.read(out, from, count);
    else out.fill(0, from, from + count);
    for (let i = from; i < from + count; i++) {
      const index = out[i]!;
      // A width-32 index past 2^31 reads negative: past the dictionary all the same.
      if (index >= entries || index < 0) throw new UnreadableError(`dictionary index ${index >>> 0} is past the dictionary's ${entries} entries`);
    }
  };
}

async function indexCursor(window: ByteWindow): Promise<RleCursor | undefined> {
  await window.fill(1);
  const width = window.at < window.end ? window.bytes[window.at++]! : 0;
  return width > 0 ? new RleCursor(window, width, 'dictionary indices') : undefined;
}
