import type { PageHeader } from 'hyparquet';
import type { ColumnDecoder } from 'hyparquet/src/types.js';
import type { ByteSource } from './byte-source.js';
import { StreamWindow, wholeWindow } from './byte-window.js';
import { checkDeclaredSize } from './guarded-codecs.js';
import { levelBytesV1, pageRuns, runsReadable, type PageDictionary, type PageParts, type SlicedPage } from './sliced-page.js';
import { SnappyStream } from './snappy-stream.js';

/**
 * Copies in Snappy reach back at most 64 KiB as every compressor known writes them (the reference
 * one, snap, hyparquet-writer's and Go's work in 64 KiB blocks); a copy from further back makes
 * the page decode whole (see byte-window.ts).
 */
const SNAPPY_HISTORY = 64 * 1024;
/** Output decoded ahead of what is read, a chunk at a time. */
const OUTPUT_CHUNK = 1024 * 1024;

/** Where a page's data lies in its file, and how much of it to fetch at a time. */
export interface PageInput {
  readonly source: ByteSource;
  /** File position of the page's data (after its header). */
  readonly start: number;
  readonly size: number;
  readonly pieceBytes: number;
}

/**
 * Whether a data page can be read straight from its file, never whole: Snappy (the codec of DuckDB,
 * Spark and pyarrow by default), a flat column, values read in runs. Other codecs decode a page whole.
 */
export function streamable(header: PageHeader, decoder: ColumnDecoder, hashed: boolean): boolean {
  if (decoder.codec !== 'SNAPPY') return false;
  if (header.type === 'DATA_PAGE') return header.uncompressed_page_size > 0 && runsReadable(decoder, header.data_page_header?.encoding, hashed);
  const v2 = header.data_page_header_v2;
  if (header.type !== 'DATA_PAGE_V2' || !v2 || v2.is_compressed === false) return false;
  return header.uncompressed_page_size - v2.repetition_levels_byte_length - v2.definition_levels_byte_length > 0 && runsReadable(decoder, v2.encoding, hashed);
}

/** A page `streamable` holds for (its header checked), read in runs from its file. */
export async function streamedPage(header: PageHeader, input: PageInput, decoder: ColumnDecoder, dictionary: PageDictionary | undefined, hashed: boolean): Promise<SlicedPage> {
  const defined = decoder.element.repetition_type !== 'REQUIRED';
  const parts = header.type === 'DATA_PAGE' ? await partsV1(header, input, defined) : await partsV2(header, input, defined);
  return pageRuns(parts, decoder, dictionary, hashed);
}

/** v1: the definition levels (length-prefixed) are the first bytes of the stream, copied out to be read beside the values. */
async function partsV1(header: PageHeader, input: PageInput, defined: boolean): Promise<PageParts> {
  const { num_values: rows, encoding } = header.data_page_header!;
  const size = header.uncompressed_page_size;
  const values = snappyWindow(input, 0, size);
  if (!defined) return { rows, levels: undefined, values, encoding };
  await values.fill(4);
  const length = levelBytesV1(values.bytes.subarray(values.at, values.end), size);
  values.at += 4;
  await values.fill(length);
  const levels = wholeWindow(values.bytes.slice(values.at, values.at + length));
  values.at += length;
  return { rows, levels, values, encoding };
}

/** v2: the levels are uncompressed ahead of the compressed values, and fetched on their own. */
async function partsV2(header: PageHeader, input: PageInput, defined: boolean): Promise<PageParts> {
  const v2 = header.data_page_header_v2!;
  const { num_values: rows, repetition_levels_byte_length: repetition, definition_levels_byte_length: definition } = v2;
  let levels;
  if (defined && v2.num_nulls !== 0) {
    const start = input.start + repetition;
    levels = wholeWindow(new Uint8Array(await input.source.slice(start, start + definition)));
  }
  // As hyparquet and the page guard read it: a REQUIRED column's values start after the repetition levels.
  const values = snappyWindow(input, defined ? repetition + definition : repetition, header.uncompressed_page_size - repetition - definition);
  return { rows, levels, values, encoding: v2.encoding };
}

/** The Snappy data from `from` in the page's data to its end, decoded as it is read. */
function snappyWindow(input: PageInput, from: number, declared: number): StreamWindow {
  const compressed = input.size - from;
  checkDeclaredSize('SNAPPY', compressed, declared);
  const start = input.start + from;
  const read = async (a: number, b: number) => new Uint8Array(await input.source.slice(start + a, start + b));
  const open = () => new SnappyStream(read, compressed, declared, input.pieceBytes);
  // A wide table streams many columns at once: each makes its output in pieces the size of its input.
  return new StreamWindow(open(), SNAPPY_HISTORY, Math.min(OUTPUT_CHUNK, Math.max(SNAPPY_HISTORY, input.pieceBytes)), open);
}
