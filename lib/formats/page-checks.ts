import type { ColumnMetaData, PageHeader, ParquetType } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { checkLevelsV2, checkPageV1, checkValues, type PageShape } from './page-values.js';
import { UnreadableError } from './table-file.js';

/**
 * Walks a column chunk's page headers before hyparquet decodes it, the way hyparquet will (until
 * the row group's rows are covered), and rejects headers whose counts and sizes the decoder would
 * allocate or loop by. Streams in uncompressed bytes are checked now; those inside compressed
 * pages are returned, to be checked by the codec wrapper once decompressed.
 */
export interface PageContext {
  readonly name: string;
  readonly meta: ColumnMetaData;
  /** Not REQUIRED: pages carry definition levels. */
  readonly defined: boolean;
  readonly groupRows: number;
  /** Its delta pages are read by delta-value-runs.ts, not hyparquet (see PageShape). */
  readonly wideDeltas?: boolean;
  /** The row group's index, to name a page in an error. */
  readonly group?: number;
}

export interface ChunkToCheck extends PageContext {
  readonly bytes: Uint8Array;
}

/** A compressed page's bytes, the check to run on what they decompress to, and where the page is (see pageLabel). */
export interface DeferredCheck {
  readonly compressed: Uint8Array;
  readonly check: (page: Uint8Array) => void;
  readonly where: string;
}

/** A page as an error names it: its row group, column and where it starts in its chunk. */
export function pageLabel(chunk: PageContext, start: number): string {
  return `${chunk.group === undefined ? '' : `row group ${chunk.group}, `}column "${chunk.name}", page at byte ${start} of its chunk`;
}

/** Checks a chunk's pages (see above); `declared` gets what each page's header says it inflates to. */
export function checkChunkPages(chunk: ChunkToCheck, declared: number[] = []): DeferredCheck[] {
  const deferred: DeferredCheck[] = [];
  const reader = { view: new DataView(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength), offset: 0 };
  for (let rows = 0; rows < chunk.groupRows && reader.offset < chunk.bytes.length - 1;) {
    const start = reader.offset;
    const header = readHeader(reader);
    // A header that does not parse is hyparquet's to report, with its own words.
    if (!header) return deferred;
    try {
      // Without a size hyparquet's reader position becomes NaN and it re-reads byte 0 forever.
      const size = count(header.compressed_page_size, chunk.bytes.length - reader.offset, 'bytes of page data');
      declared.push(Number.isInteger(header.uncompressed_page_size) ? Math.max(0, header.uncompressed_page_size) : 0);
      const data = chunk.bytes.subarray(reader.offset, reader.offset + size);
      reader.offset += size;
      rows += checkPage(chunk, header, data, deferred, pageLabel(chunk, start));
    } catch (error) {
      throw pageError(chunk, start, error);
    }
  }
  return deferred;
}

/**
 * Checks one page (its header parsed, its data in `data`) for a reader that walks pages itself.
 * Returns the rows hyparquet will count for it; names the page in the error.
 */
export function checkPageAt(chunk: PageContext, start: number, header: PageHeader, data: Uint8Array, deferred: DeferredCheck[]): number {
  try {
    return checkPage(chunk, header, data, deferred, pageLabel(chunk, start));
  } catch (error) {
    throw pageError(chunk, start, error);
  }
}

function pageError(chunk: PageContext, start: number, error: unknown): unknown {
  if (!(error instanceof UnreadableError)) return error;
  return new UnreadableError(`column "${chunk.name}", page at byte ${start} of its chunk: ${error.message}`);
}

function readHeader(reader: { view: DataView; offset: number }): PageHeader | undefined {
  try {
    return parquetHeader(reader);
  } catch {
    return undefined;
  }
}

/** Checks one page; returns the rows hyparquet will count for it (it decodes num_values or throws). */
function checkPage(chunk: PageContext, header: PageHeader, data: Uint8Array, deferred: DeferredCheck[], where: string): number {
  const compressed = chunk.meta.codec !== 'UNCOMPRESSED';
  if (header.type === 'DATA_PAGE' && header.data_page_header) {
    const values = count(header.data_page_header.num_values, chunk.groupRows, 'values');
    const shape = pageShape(chunk, 1, header.data_page_header.encoding, values, values);
    if (compressed) deferred.push({ compressed: data, check: (page) => checkPageV1(page, shape), where });
    else checkPageV1(data, shape);
    return values;
  }
  if (header.type === 'DATA_PAGE_V2' && header.data_page_header_v2) return checkPageV2(chunk, header, data, deferred, where);
  if (header.type === 'DICTIONARY_PAGE' && header.dictionary_page_header) checkDictionaryPage(chunk, header);
  return 0;
}

/** The fewest bytes a PLAIN value takes; a FIXED_LEN_BYTE_ARRAY's length is in the schema, and at least 1. */
const PLAIN_VALUE_BYTES: Record<ParquetType, number> = { BOOLEAN: 1 / 8, INT32: 4, FLOAT: 4, INT64: 8, DOUBLE: 8, INT96: 12, BYTE_ARRAY: 4, FIXED_LEN_BYTE_ARRAY: 1 };

/**
 * A dictionary holds its values PLAIN in a page of exactly its uncompressed size (the decoder
 * refuses any other length): no more of them than those bytes have room for. hyparquet sizes the
 * dictionary by the count, and for a page not aligned to the value size allocates it before
 * finding the bytes short.
 */
function checkDictionaryPage(chunk: PageContext, header: PageHeader): void {
  const size = header.uncompressed_page_size;
  const bytes = Number.isInteger(size) && size > 0 ? size : 0;
  count(header.dictionary_page_header!.num_values, Math.floor(bytes / (PLAIN_VALUE_BYTES[chunk.meta.type] ?? 1)), 'dictionary values');
}

function checkPageV2(chunk: PageContext, header: PageHeader, data: Uint8Array, deferred: DeferredCheck[], where: string): number {
  const v2 = header.data_page_header_v2!;
  const { values, nulls, repetition, levels } = countsV2(chunk, header, data.length);
  const shape = pageShape(chunk, 2, v2.encoding, values, values - nulls);
  checkLevelsV2(data, repetition, shape);
  // As in hyparquet: a REQUIRED column's values start right after the repetition levels.
  const stored = data.subarray(chunk.defined ? levels : repetition);
  const uncompressed = header.uncompressed_page_size - levels;
  if (chunk.meta.codec !== 'UNCOMPRESSED' && v2.is_compressed !== false && uncompressed > 0) {
    deferred.push({ compressed: stored, check: (page) => checkValues(page, 0, shape), where });
  } else checkValues(stored, 0, shape);
  // hyparquet counts a flat column's rows by the values a page decodes to: num_values, not num_rows.
  return values;
}

/** A v2 header's counts, and its level lengths within the page's `bytes` of data. */
function countsV2(chunk: PageContext, header: PageHeader, bytes: number): { values: number; nulls: number; repetition: number; levels: number } {
  const v2 = header.data_page_header_v2!;
  const values = count(v2.num_values, chunk.groupRows, 'values');
  const nulls = count(v2.num_nulls, values, 'nulls');
  count(v2.num_rows, chunk.groupRows, 'rows');
  const repetition = count(v2.repetition_levels_byte_length, bytes, 'repetition level bytes');
  const levels = repetition + count(v2.definition_levels_byte_length, bytes - repetition, 'definition level bytes');
  if (!(header.uncompressed_page_size - levels >= 0)) throw new UnreadableError(`its levels take ${levels} bytes, more than its uncompressed size of ${header.uncompressed_page_size}`);
  return { values, nulls, repetition, levels };
}

/**
 * Checks the header of a data page that is read straight from its file (see streamed-page.ts):
 * its counts and level lengths. Its streams are not walked first: they are read by decoders
 * that stop at what was asked for and at what the bytes hold. Returns the rows it counts for.
 */
export function checkStreamedHeaderAt(chunk: PageContext, start: number, header: PageHeader): number {
  try {
    if (header.type === 'DATA_PAGE') return count(header.data_page_header?.num_values, chunk.groupRows, 'values');
    return countsV2(chunk, header, header.compressed_page_size).values;
  } catch (error) {
    throw pageError(chunk, start, error);
  }
}

function pageShape(chunk: PageContext, version: 1 | 2, encoding: PageShape['encoding'], values: number, stored: number): PageShape {
  return { version, encoding, values, stored, defined: chunk.defined, type: chunk.meta.type, wideDeltas: chunk.wideDeltas ?? false };
}

/** A header count: a whole number no larger than what contains it (a page holds at most its group's rows). */
function count(value: number | undefined, most: number, what: string): number {
  if (value === undefined || !Number.isInteger(value) || value < 0 || value > most) {
    throw new UnreadableError(`its header declares ${value ?? 'no'} ${what}; at most ${most} are possible`);
  }
  return value;
}
