import type { ColumnMetaData, FileMetaData, PageHeader } from 'hyparquet';
import { parquetHeader, readPage } from 'hyparquet/src/column.js';
import { convert } from 'hyparquet/src/convert.js';
import type { ByteSource } from './byte-source.js';
import type { ColumnDecoder } from 'hyparquet/src/types.js';
import { columnDecoder } from './column-decoder.js';
import { hashValue } from '../checks/key-hash.js';
import { slicedPage, type PageDictionary, type SlicedPage } from './sliced-page.js';
import { guardedCompressors } from './guarded-codecs.js';
import { checkPageAt, type DeferredCheck, type PageContext } from './page-checks.js';
import { UnreadableError } from './table-file.js';

/** A page header and its bytes stay under this before the window grows past it; most are far smaller. */
const HEADER_BYTES = 64 * 1024;

/**
 * The data pages of one top-level column chunk, in order, fetched through a window that holds
 * about one page, each decoded as its rows are taken (see sliced-page.ts): memory follows the
 * page, not the row group. Each page is checked (see page-checks.ts) before it is decoded; a
 * dictionary page is decoded once and kept.
 */
export async function* columnPages(source: ByteSource, metadata: FileMetaData, meta: ColumnMetaData, groupRows: number, windowBytes: number, hashed: boolean): AsyncGenerator<SlicedPage> {
  const name = meta.path_in_schema.join('.');
  const decoder = columnDecoder(metadata, meta, {});
  if (!decoder) throw new UnreadableError(`column "${name}" is not in the file's schema`);
  const context: PageContext = { name, meta, defined: decoder.element.repetition_type !== 'REQUIRED', groupRows };
  // `||` as hyparquet does: some writers put 0 in dictionary_page_offset for "none".
  const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
  const window = new ChunkWindow(source, start, start + Number(meta.total_compressed_size), windowBytes);
  const state: PageState = { rows: 0, dictionary: undefined, hashed };
  while (state.rows < groupRows && window.remaining() > 1) {
    const page = await nextPage(window, start, context, decoder, state);
    if (page) yield page;
  }
}

interface PageState {
  rows: number;
  dictionary: PageDictionary | undefined;
  readonly hashed: boolean;
}

/**
 * Reads, checks and opens the next page; a dictionary page goes into `state`. Its own frame holds
 * the compressed bytes, so they are not kept alive while the generator waits at a yield.
 */
async function nextPage(window: ChunkWindow, start: number, context: PageContext, decoder: ColumnDecoder, state: PageState): Promise<SlicedPage | undefined> {
  const at = window.position - start;
  const { header, data } = await window.nextPage(context.name, at);
  const deferred: DeferredCheck[] = [];
  state.rows += checkPageAt(context, at, header, data, deferred);
  const decoding = { ...decoder, compressors: guardedCompressors(deferred) };
  if (header.type === 'DICTIONARY_PAGE') state.dictionary = readDictionaryPage(header, data, decoding);
  else if (header.type === 'DATA_PAGE' || header.type === 'DATA_PAGE_V2') return slicedPage(header, data, decoding, state.dictionary, state.hashed);
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

  constructor(private readonly source: ByteSource, start: number, private readonly end: number, private readonly windowBytes: number) {
    this.position = start;
    this.bytesStart = start;
  }

  remaining(): number {
    return this.end - this.position;
  }

  /** The next page's header and data bytes; the reader then stands after the page. */
  async nextPage(column: string, at: number): Promise<{ header: PageHeader; data: Uint8Array }> {
    const header = await this.header(column, at);
    const size = header.compressed_page_size;
    if (!Number.isInteger(size) || size < 0 || size > this.remaining()) {
      throw new UnreadableError(`column "${column}", page at byte ${at} of its chunk: its header declares ${size} bytes of page data; ${this.remaining()} remain in the chunk`);
    }
    return { header, data: size > this.windowBytes ? await this.takeAlone(size) : await this.take(size) };
  }

  /** Parses a header from the bytes ahead, growing the look-ahead when a header is larger. */
  private async header(column: string, at: number): Promise<PageHeader> {
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

  private async refill(wanted: number): Promise<void> {
    const tail = this.bytes.subarray(this.position - this.bytesStart);
    const fetchFrom = this.bytesStart + this.bytes.length;
    const fetchTo = Math.min(this.end, Math.max(this.position + wanted, fetchFrom + this.windowBytes));
    const fresh = new Uint8Array(await this.source.slice(fetchFrom, fetchTo));
    const joined = new Uint8Array(tail.length + fresh.length);
    joined.set(tail);
    joined.set(fresh, tail.length);
    this.bytes = joined;
    this.bytesStart = this.position;
  }
}
