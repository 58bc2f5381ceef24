import type { DecodedArray, PageHeader } from 'hyparquet';
import type { ColumnDecoder } from 'hyparquet/src/types.js';
import { readPage } from 'hyparquet/src/column.js';
import { decompressPage } from 'hyparquet/src/datapage.js';
import { hashValue } from '../checks/key-hash.js';
import { wholeWindow, type ByteWindow } from './byte-window.js';
import { deltaReadable, deltaRun } from './delta-value-runs.js';
import { decimalValues, isDecimal, rawDecimalElement } from './exact-decimals.js';
import { dictionaryEncoded, hashRun, indexRun, runsRead, valueRun, type PageDictionary } from './page-value-runs.js';
import type { ByteColumnBuilder } from './byte-column-builder.js';
import { RleCursor } from './rle-cursor.js';
import type { NumberVector } from './column-vector.js';
import { numberForm, numberRun, type NumberRunResult } from './number-runs.js';
import { UnreadableError } from './table-file.js';

export type { PageDictionary } from './page-value-runs.js';

/**
 * A data page of a flat column whose values are decoded a run of rows at a time: writers such as
 * DuckDB put a whole row group of millions of values in one page, and decoding it at once would
 * hold a JS value per row. Definition levels and values are read as they are taken (see
 * page-value-runs.ts), from the page's bytes whole or streamed (see streamed-page.ts). Other
 * encodings (delta, byte stream split, PLAIN booleans, which are bit-packed) decode whole with
 * hyparquet and are handed out in runs.
 *
 * A key column the engine needs only the identity of (see BatchOptions.hashOnly) is taken as key
 * hashes instead, NaN for null: PLAIN strings are hashed from the page bytes, without a string.
 */
export interface SlicedPage {
  /** Rows not yet taken. */
  readonly left: number;
  /**
   * The next `count` rows (at most `left`): values, null where a row has none. With `wanted`, a
   * value only a row marked 1 reads may be left undefined elsewhere (see BatchOptions.pick).
   */
  take(count: number, wanted?: Uint8Array): Promise<ArrayLike<unknown>>;
  /** A dictionary-encoded page read in runs: the dictionary its indices point into (see takeIndices). */
  readonly entries?: ArrayLike<unknown>;
  /**
   * Dictionary-encoded pages: the next `count` rows, as `take` would give them, as indices into
   * `entries` written at `out[from]`, -1 for null; nothing is looked up.
   */
  takeIndices?(out: Int32Array, from: number, count: number): Promise<void>;
  /**
   * Present on a PLAIN page of fixed-width numbers (see number-runs.ts): the next `count` rows as
   * a NumberVector, or as `take` gives them where a value has no exact double. Either way the
   * rows are taken.
   */
  takeNumbers?(count: number): Promise<NumberVector | ArrayLike<unknown>>;
  /**
   * A page of PLAIN byte arrays read in runs: the next `count` rows appended as UTF-8 bytes,
   * without a string (see BatchOptions.textBytes).
   */
  takeBytes?(count: number, into: ByteColumnBuilder): Promise<void>;
}

/** A data page ready to be read in runs: its definition levels (absent when every row has a value) and values. */
export interface PageParts {
  readonly rows: number;
  /** An RLE/bit-packed stream of width 1, 1 where a row has a value. */
  readonly levels: ByteWindow | undefined;
  readonly values: ByteWindow;
  readonly encoding: string | undefined;
}

/**
 * A page whose data (compressed bytes) is in memory: decompressed whole, then read in runs. With
 * `presence`, only whether each row has a value is read (see presenceRuns).
 */
export function slicedPage(header: PageHeader, data: Uint8Array, decoder: ColumnDecoder, dictionary: PageDictionary | undefined, hashed: boolean, presence = false): SlicedPage {
  const parts = pageParts(header, data, decoder, hashed, presence);
  if (parts && presence) return presenceRuns(parts);
  return parts ? pageRuns(parts, decoder, dictionary, hashed) : wholePage(header, data, decoder, dictionary?.values, hashed);
}

/**
 * A page of a column no rule reads the values of, only whether each row has one: `true` or null
 * per row, from the definition levels alone. Its values are never decoded, and a v2 page or a
 * REQUIRED column's page is not even decompressed.
 */
function presenceRuns(parts: PageParts): SlicedPage {
  const levels = parts.levels && new RleCursor(parts.levels, 1, 'definition levels');
  let at = 0;
  let scratch = new Uint8Array(0);
  return {
    get left() {
      return parts.rows - at;
    },
    async take(count) {
      at += count;
      const out = new Array<unknown>(count);
      if (!levels) return out.fill(true);
      if (scratch.length < count) scratch = new Uint8Array(count);
      await levels.read(scratch, 0, count);
      for (let i = 0; i < count; i++) out[i] = scratch[i] === 1 ? true : null;
      return out;
    },
  };
}

/** Whether a flat column's page is read in runs here (`encoding` from its header), not whole by hyparquet. */
export function runsReadable(decoder: ColumnDecoder, encoding: string | undefined, hashed: boolean): boolean {
  return decoder.schemaPath.length === 2 && decoder.type !== 'BOOLEAN' && runsRead(encoding, decoder, hashed);
}

/** Also delta-encoded pages, which are read in runs from a page in memory only (see delta-value-runs.ts). */
function wholeRunsReadable(decoder: ColumnDecoder, encoding: string | undefined, hashed: boolean): boolean {
  return runsReadable(decoder, encoding, hashed) || (decoder.schemaPath.length === 2 && deltaReadable(encoding, decoder));
}

/** Hands out a page's rows from its parts; `runsReadable` must hold for it, or a delta encoding on a page in memory. */
export function pageRuns(parts: PageParts, decoder: ColumnDecoder, dictionary: PageDictionary | undefined, hashed: boolean): SlicedPage {
  if (!hashed && dictionary && dictionaryEncoded(parts.encoding)) return indexRuns(parts, dictionary.values);
  const values = deltaReadable(parts.encoding, decoder) ? deltaRun(parts.values.bytes, parts.encoding, decoder, hashed, parts.rows)
    : hashed ? hashRun(parts.values, parts.encoding, dictionary) : valueRun(parts.values, parts.encoding, decoder, dictionary?.values);
  const levels = parts.levels && new RleCursor(parts.levels, 1, 'definition levels');
  const { rows } = parts;
  const form = !hashed && parts.encoding === 'PLAIN' ? numberForm(decoder) : undefined;
  const numbers = form && numberRun(parts.values, form, decoder);
  let at = 0;
  let scratch = new Uint8Array(0);
  const plainBytes = !hashed && parts.encoding === 'PLAIN' && decoder.type === 'BYTE_ARRAY';
  return {
    get left() {
      return rows - at;
    },
    ...(numbers && {
      async takeNumbers(count: number) {
        at += count;
        if (!levels) return finishing(numberVector(await numbers(count), undefined));
        if (scratch.length < count) scratch = new Uint8Array(count);
        await levels.read(scratch, 0, count);
        let stored = 0;
        for (let i = 0; i < count; i++) if (scratch[i] === 1) stored++;
        return finishing(numberVector(await numbers(stored), scratch.subarray(0, count)));
      },
    }),
    ...(plainBytes ? { takeBytes } : {}),
    async take(count, wanted) {
      at += count;
      if (!levels) return finishing(await values(count, wanted));
      if (scratch.length < count) scratch = new Uint8Array(count);
      await levels.read(scratch, 0, count);
      let stored = 0;
      for (let i = 0; i < count; i++) if (scratch[i] === 1) stored++;
      const present = await values(stored, wanted && storedWanted(scratch, wanted, count, stored));
      const out = hashed ? new Float64Array(count) : new Array<unknown>(count);
      const none = hashed ? NaN : null;
      for (let i = 0, next = 0; i < count; i++) out[i] = scratch[i] === 1 ? present[next++] : none;
      return finishing(out);
    },
  };

  /** The values' bytes copied out of the page as they are found (see ByteColumnBuilder.appendPlain). */
  async function takeBytes(count: number, into: ByteColumnBuilder): Promise<void> {
    at += count;
    if (levels) {
      if (scratch.length < count) scratch = new Uint8Array(count);
      await levels.read(scratch, 0, count);
    }
    await into.appendPlain(parts.values, count, levels ? scratch : undefined);
    await finishing(undefined);
  }

  /** The last run also reads the rest of a streamed page, which must end where it declares. */
  async function finishing<T>(out: T): Promise<T> {
    if (at >= rows) await parts.values.finish();
    return out;
  }
}

/**
 * A dictionary-encoded page: its rows as indices into the dictionary (takeIndices), or looked up
 * (take) for a caller that wants values. Nulls are spread out from the stored indices in place.
 */
function indexRuns(parts: PageParts, entries: DecodedArray): SlicedPage {
  const read = indexRun(parts.values, entries.length);
  const levels = parts.levels && new RleCursor(parts.levels, 1, 'definition levels');
  const { rows } = parts;
  let at = 0;
  let scratch = new Uint8Array(0);
  let indices = new Int32Array(0);
  const page: SlicedPage = {
    entries,
    get left() {
      return rows - at;
    },
    async take(count) {
      if (indices.length < count) indices = new Int32Array(count);
      await takeIndices(indices, 0, count);
      const out = new Array<unknown>(count);
      for (let i = 0; i < count; i++) {
        const index = indices[i]!;
        out[i] = index < 0 ? null : entries[index];
      }
      return out;
    },
    takeIndices,
  };
  return page;

  async function takeIndices(out: Int32Array, from: number, count: number): Promise<void> {
    at += count;
    if (!levels) await read(out, from, count);
    else {
      if (scratch.length < count) scratch = new Uint8Array(count);
      await levels.read(scratch, 0, count);
      let stored = 0;
      for (let i = 0; i < count; i++) if (scratch[i] === 1) stored++;
      await read(out, from, stored);
      // Backwards, so each stored index is moved before its place is written over.
      for (let i = count - 1, next = from + stored - 1; i >= 0; i--) out[from + i] = scratch[i] === 1 ? out[next--]! : -1;
    }
    if (at >= rows) await parts.values.finish();
  }
}

/**
 * Stored values spread over their rows by the definition levels (1 where a row has a value;
 * undefined when every row has one): a NumberVector, or values with nulls where a value is not
 * an exact double.
 */
function numberVector(run: NumberRunResult, levels: Uint8Array | undefined): NumberVector | ArrayLike<unknown> {
  if (!levels) return run.exact ? { kind: 'number', values: run.values } : run.values;
  const count = levels.length;
  if (!run.exact) {
    const out = new Array<unknown>(count);
    for (let i = 0, next = 0; i < count; i++) out[i] = levels[i] === 1 ? run.values[next++] : null;
    return out;
  }
  if (run.values.length === count) return { kind: 'number', values: run.values };
  const values = new Float64Array(count);
  const stored = run.values;
  for (let i = 0, next = 0; i < count; i++) if (levels[i] === 1) values[i] = stored[next++]!;
  return { kind: 'number', values, present: levels.slice() };
}

/** `wanted` over rows as a mask over the stored (non-null) values of those rows. */
function storedWanted(levels: Uint8Array, wanted: Uint8Array, count: number, stored: number): Uint8Array {
  const out = new Uint8Array(stored);
  for (let i = 0, next = 0; i < count; i++) if (levels[i] === 1) out[next++] = wanted[i]!;
  return out;
}

/**
 * Levels and the value bytes of a v1 or v2 page, decompressed; undefined for a page left to
 * hyparquet. For `presence` any encoding of a flat column will do, and values stay as they are.
 */
function pageParts(header: PageHeader, data: Uint8Array, decoder: ColumnDecoder, hashed: boolean, presence: boolean): PageParts | undefined {
  const defined = decoder.element.repetition_type !== 'REQUIRED';
  const readable = (encoding: string | undefined) => (presence ? decoder.schemaPath.length === 2 : wholeRunsReadable(decoder, encoding, hashed));
  if (header.type === 'DATA_PAGE' && header.data_page_header) {
    const { num_values: rows, encoding } = header.data_page_header;
    if (!readable(encoding)) return undefined;
    if (presence && !defined) return { rows, levels: undefined, values: wholeWindow(data), encoding };
    const page = decompressPage(data, header.uncompressed_page_size, decoder.codec, decoder.compressors);
    if (!defined) return { rows, levels: undefined, values: wholeWindow(page), encoding };
    const length = levelBytesV1(page, page.length);
    return { rows, levels: wholeWindow(page.subarray(4, 4 + length)), values: wholeWindow(page.subarray(4 + length)), encoding };
  }
  const v2 = header.data_page_header_v2;
  if (header.type !== 'DATA_PAGE_V2' || !v2 || !readable(v2.encoding)) return undefined;
  const { num_values: rows, repetition_levels_byte_length: repetition, definition_levels_byte_length: definition } = v2;
  const levels = defined && v2.num_nulls !== 0 ? wholeWindow(data.subarray(repetition, repetition + definition)) : undefined;
  if (presence) return { rows, levels, values: wholeWindow(data), encoding: v2.encoding };
  const size = header.uncompressed_page_size - repetition - definition;
  // As hyparquet and the page guard read it: a REQUIRED column's values start after the repetition levels.
  const stored = data.subarray(defined ? repetition + definition : repetition);
  const values = v2.is_compressed !== false && size > 0 ? decompressPage(stored, size, decoder.codec, decoder.compressors) : stored;
  return { rows, levels, values: wholeWindow(values), encoding: v2.encoding };
}

/** A v1 page's definition levels are length-prefixed: the length, checked against the bytes there are. */
export function levelBytesV1(prefix: Uint8Array, pageBytes: number): number {
  if (prefix.length < 4) throw new UnreadableError(`a page of ${pageBytes} bytes ends inside its definition levels' length`);
  const length = new DataView(prefix.buffer, prefix.byteOffset, 4).getUint32(0, true);
  if (length > pageBytes - 4) throw new UnreadableError(`definition levels claim ${length} bytes of a page of ${pageBytes}`);
  return length;
}

/**
 * The page's values as hyparquet decodes them, but a decimal's exactly (exact-decimals.ts):
 * hyparquet leaves the unscaled integers of a decimal it is not told of, and entries looked up
 * in the dictionary are converted already.
 */
function wholeValues(reader: { view: DataView; offset: number }, header: PageHeader, decoder: ColumnDecoder, dictionary: DecodedArray | undefined): DecodedArray {
  if (!isDecimal(decoder.element)) return readPage(reader, header, decoder, dictionary, undefined, 0).data ?? [];
  const raw = readPage(reader, header, { ...decoder, element: rawDecimalElement(decoder.element) }, dictionary, undefined, 0).data ?? [];
  const encoding = header.data_page_header?.encoding ?? header.data_page_header_v2?.encoding ?? '';
  return encoding.endsWith('_DICTIONARY') && dictionary ? raw : decimalValues(raw, decoder.element.scale ?? 0);
}

/** hyparquet decodes the page whole (nulls in place); runs are cut from that. */
function wholePage(header: PageHeader, data: Uint8Array, decoder: ColumnDecoder, dictionary: DecodedArray | undefined, hashed: boolean): SlicedPage {
  const reader = { view: new DataView(data.buffer, data.byteOffset, data.byteLength), offset: 0 };
  const values = wholeValues(reader, header, decoder, dictionary);
  const decoded = hashed ? Float64Array.from(values, (value) => (value === null || value === undefined ? NaN : hashValue(value))) : values;
  let at = 0;
  return {
    get left() {
      return decoded.length - at;
    },
    async take(count) {
      at += count;
      return decoded.slice(at - count, at);
    },
  };
}
