import type { ColumnMetaData, FileMetaData, PageHeader } from 'hyparquet';
import { parquetHeader, readPage } from 'hyparquet/src/column.js';
import { convert } from './exact-decimals.js';
import { readInto, type ByteSource } from './byte-source.js';
import type { ColumnDecoder } from 'hyparquet/src/types.js';
import { columnDecoder } from './column-decoder.js';
import { hashValue } from '../checks/key-hash.js';
import { slicedPage, type PageDictionary, type SlicedPage } from './sliced-page.js';
import { guardedCompressors } from './guarded-codecs.js';
import { checkPageAt, checkStreamedHeaderAt, pageLabel, type DeferredCheck, type PageContext } from './page-checks.js';
import { streamable, streamedPage } from './streamed-page.js';
import { UnreadableError } from './table-file.js';
import type { PageBudget } from './page-budget.js';

/** A page header and its bytes stay under this before the window grows past it; most are far smaller. */
const HEADER_BYTES = 64 * 1024;

/** Compressed bytes a streamed page fetches at a time, at most: one piece a column is live at once, so a wide table takes its window's share. */
const STREAM_PIECE_BYTES = 1024 * 1024;

/** What of a column is read: its key hashes, only which rows have a value, or its strings as UTF-8 bytes (see BatchOptions). */
export interface ColumnReading {
  readonly hashed?: boolean;
  readonly presence?: boolean;
  readonly rawText?: boolean;
}

/** How a chunk's pages are fetched: a window of this many bytes; pages larger than `streamBytes` are streamed. */
export interface PageFetching {
  readonly windowBytes: number;
  readonly streamBytes: number;
  /** What the row group's columns may hold decoded at once; unset, no limit but the page limit. */
  readonly budget?: PageBudget;
}

/**
 * The data pages of one top-level column chunk, in order, fetched through a window that holds
 * about one page, each decoded as its rows are taken (see sliced-page.ts): memory follows the
 * page, not the row group. A Snappy page larger than `streamBytes` is not fetched whole but read
 * from the file as it is decoded (see streamed-page.ts), so memory follows the window instead.
 * Each page is checked (see page-checks.ts) before it is decoded; a dictionary page is decoded
 * once and kept.
 */
export async function* columnPages(source: ByteSource, metadata: FileMetaData, meta: ColumnMetaData, groupRows: number, fetching: PageFetching, wanted: ColumnReading = {}, group?: number): AsyncGenerator<SlicedPage> {
  const name = meta.path_in_schema.join('.');
  const { hashed = false, presence = false } = wanted;
  const decoder = columnDecoder(metadata, meta, {}, { rawText: wanted.rawText ?? false });
  if (!decoder) throw new UnreadableError(`column "${name}" is not in the file's schema`);
  // A flat column's delta pages are read by delta-value-runs.ts (see sliced-page.ts).
  const context: PageContext = { name, meta, defined: decoder.element.repetition_type !== 'REQUIRED', groupRows, wideDeltas: decoder.schemaPath.length === 2, group };
  // `||` as hyparquet does: some writers put 0 in dictionary_page_offset for "none".
  const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
  const window = new ChunkWindow(source, start, start + Number(meta.total_compressed_size), fetching.windowBytes);
  const state: PageState = { rows: 0, dictionary: undefined, hashed, presence, streamBytes: fetching.streamBytes, windowBytes: fetching.windowBytes, budget: fetching.budget };
  try {
    while (state.rows < groupRows && window.remaining() > 1) {
      const page = await nextPage(window, start, context, decoder, state);
      if (page) yield page;
    }
  } finally {
    fetching.budget?.release(dataHolder(name));
    fetching.budget?.release(dictionaryHolder(name));
  }
}

const dataHolder = (name: string) => `column "${name}"`;
const dictionaryHolder = (name: string) => `column "${name}"'s dictionary`;

interface PageState {
  rows: number;
  dictionary: PageDictionary | undefined;
  readonly hashed: boolean;
  /** Only whether rows have values is wanted (see slicedPage); a streamed page is decoded all the same. */
  readonly presence: boolean;
  readonly streamBytes: number;
  readonly windowBytes: number;
  readonly budget: PageBudget | undefined;
}

/**
 * Reads, checks and opens the next page; a dictionary page goes into `state`. Its own frame holds
 * the compressed bytes, so they are not kept alive while the generator waits at a yield.
 */
async function nextPage(window: ChunkWindow, start: number, context: PageContext, decoder: ColumnDecoder, state: PageState): Promise<SlicedPage | undefined> {
  const at = window.position - start;
  const header = await window.header(context.name, at);
  const size = window.dataSize(context.name, at, header);
  if (size > state.streamBytes && streamable(header, decoder, state.hashed)) {
    state.rows += checkStreamedHeaderAt(context, at, header);
    // The page before is done with; this one holds only its window.
    state.budget?.hold(dataHolder(context.name), 0);
    const input = { source: window.source, start: window.skip(size), size, pieceBytes: Math.min(STREAM_PIECE_BYTES, state.windowBytes) };
    return streamedPage(header, input, decoder, state.dictionary, state.hashed);
  }
  const data = await window.data(size);
  const deferred: DeferredCheck[] = [];
  state.rows += checkPageAt(context, at, header, data, deferred);
  // Held before it is decompressed: the page before it in this column is done with.
  state.budget?.hold(header.type === 'DICTIONARY_PAGE' ? dictionaryHolder(context.name) : dataHolder(context.name), header.uncompressed_page_size);
  const decoding = { ...decoder, compressors: guardedCompressors(deferred, pageLabel(context, at)) };
  if (header.type === 'DICTIONARY_PAGE') state.dictionary = readDictionaryPage(header, data, decoding);
  else if (header.type === 'DATA_PAGE' || header.type === 'DATA_PAGE_V2') return slicedPage(header, data, decoding, state.dictionary, state.hashed, state.presence);
  return undefined;
}

function readDictionaryPage(header: PageHeader, data: Uint8Array, decoder: ColumnDecoder): PageDictionary | undefined {
  const reader = { view: new DataView(data.buffer, data.byteOffset, data.byteLength), offset: 0 };
  const page = readPage(reader, header, decoder, undefined, undefined, 0);
  if (!page.data) return undefined;
  const values = convert(page.data, decoder);
  let hashes: Float64Array | undefined;
  return { values, hashes: () => (hashes ??= Float64Array.from(values, (value) => hashValue(value))) };
}

/**
 * Bytes [start, end) of a chunk, read forward a window at a time. A refill keeps the unread tail
 * and appends the next window, so a page that straddles two windows arrives whole.
 */
class ChunkWindow {
  position: number;
  private bytes = new Uint8Array(0);
  private bytesStart: number;

  constructor(readonly source: ByteSource, start: number, private readonly end: number, readonly windowBytes: number) {
    this.position = start;
    this.bytesStart = start;
  }

  remaining(): number {
    return this.end - this.position;
  }

  /** A page's data size from its header, which must fit in what remains of the chunk. */
  dataSize(column: string, at: number, header: PageHeader): number {
    const size = header.compressed_page_size;
    if (!Number.isInteger(size) || size < 0 || size > this.remaining()) {
      throw new UnreadableError(`column "${column}", page at byte ${at} of its chunk: its header declares ${size} bytes of page data; ${this.remaining()} remain in the chunk`);
    }
    return size;
  }

  /** The next `size` bytes, the data of the page whose header was just read. */
  async data(size: number): Promise<Uint8Array> {
    return size > this.windowBytes ? this.takeAlone(size) : this.take(size);
  }

  /** Passes over `size` bytes read elsewhere; returns where they start. */
  skip(size: number): number {
    const from = this.position;
    this.position += size;
    if (this.position > this.bytesStart + this.bytes.length) {
      this.bytes = new Uint8Array(0);
      this.bytesStart = this.position;
    }
    return from;
  }

  /** Parses a header from the bytes ahead, growing the look-ahead when a header is larger; the reader then stands after it. */
  async header(column: string, at: number): Promise<PageHeader> {
    for (let ahead = HEADER_BYTES; ; ahead *= 4) {
      const bytes = await this.peek(ahead);
      const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
      try {
        const header = parquetHeader(reader);
        await this.take(reader.offset);
        return header;
      } catch (error) {
        if (bytes.length >= this.remaining()) throw new UnreadableError(`column "${column}", page at byte ${at} of its chunk: its page header does not parse (${String(error)})`, { cause: error });
      }
    }
  }

  /**
   * A page larger than the window is read again whole, on its own, rather than joined to what the
   * window holds of it: no second copy exists, and its bytes go with the page once decompressed.
   */
  private async takeAlone(size: number): Promise<Uint8Array> {
    const page = new Uint8Array(await this.source.slice(this.position, this.position + size));
    this.position += size;
    this.bytes = new Uint8Array(0);
    this.bytesStart = this.position;
    return page;
  }

  private async peek(length: number): Promise<Uint8Array> {
    const wanted = Math.min(length, this.remaining());
    const offset = this.position - this.bytesStart;
    if (this.bytes.length - offset < wanted) await this.refill(wanted);
    const from = this.position - this.bytesStart;
    return this.bytes.subarray(from, from + wanted);
  }

  private async take(length: number): Promise<Uint8Array> {
    const bytes = await this.peek(length);
    this.position += bytes.length;
    return bytes;
  }

  /**
   * A new buffer each time, never one reused: pages taken from the last one may still be read
   * (hyparquet's plain decoding makes views of page bytes). The window is read straight in after
   * the tail, so the bytes fetched are not copied a second time.
   */
  private async refill(wanted: number): Promise<void> {
    const tail = this.bytes.subarray(this.position - this.bytesStart);
    const fetchFrom = this.bytesStart + this.bytes.length;
    const fetchTo = Math.min(this.end, Math.max(this.position + wanted, fetchFrom + this.windowBytes));
    const joined = new Uint8Array(tail.length + fetchTo - fetchFrom);
    joined.set(tail);
    await readInto(this.source, fetchFrom, fetchTo, joined, tail.length);
    this.bytes = joined;
    this.bytesStart = this.position;
  }
}
