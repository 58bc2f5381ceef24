import type { ColumnChunk, FileMetaData } from 'hyparquet';
import { parquetHeader, readPage } from 'hyparquet/src/column.js';
import { convert } from './exact-decimals.js';
import type { ByteSource } from './byte-source.js';
import { columnDecoder } from './column-decoder.js';
import { guardedCompressors } from './guarded-codecs.js';

/** A dictionary page larger than this is not worth fetching to save a decode. */
const MAX_DICTIONARY_BYTES = 1024 * 1024;
const DICTIONARY_ENCODINGS = new Set(['PLAIN_DICTIONARY', 'RLE_DICTIONARY']);
/** The fewest bytes a PLAIN value of each type takes: a dictionary claiming more values is forged. */
const MIN_VALUE_BYTES: Record<string, number> = { INT32: 4, INT64: 8, INT96: 12, FLOAT: 4, DOUBLE: 8, BYTE_ARRAY: 4 };

/**
 * The distinct values of a column chunk whose every data page is dictionary-encoded, decoded as
 * its data pages would be: every value in the chunk is one of these, so a rule all of them keep
 * holds for the whole chunk. Undefined when the footer cannot prove the chunk is all dictionary
 * (no encoding stats, a fallback to plain pages), the page is large, or it does not decode: the
 * data pages are then decoded as usual and say what is wrong, if anything is.
 */
export async function readDictionary(source: ByteSource, metadata: FileMetaData, chunk: ColumnChunk): Promise<readonly unknown[] | undefined> {
  const meta = chunk.meta_data;
  if (!meta || meta.path_in_schema.length !== 1 || !meta.dictionary_page_offset || !isAllDictionary(chunk)) return undefined;
  const start = Number(meta.dictionary_page_offset);
  const end = Number(meta.data_page_offset);
  if (!(end > start && end - start <= MAX_DICTIONARY_BYTES && end <= source.byteLength)) return undefined;
  // Outside the try: a storage failure is the run's to report, not a reason to decode instead.
  const bytes = await source.slice(start, end);
  try {
    const reader = { view: new DataView(bytes), offset: 0 };
    const header = parquetHeader(reader);
    const decoder = columnDecoder(metadata, meta, guardedCompressors());
    const element = decoder?.element;
    const values = header.dictionary_page_header?.num_values;
    const least = element?.type === 'FIXED_LEN_BYTE_ARRAY' ? (element.type_length ?? 0) : MIN_VALUE_BYTES[meta.type] ?? 0;
    if (header.type !== 'DICTIONARY_PAGE' || !decoder || !element || values === undefined || !(least > 0 && values * least <= header.uncompressed_page_size)) return undefined;
    const page = readPage(reader, header, decoder, undefined, undefined, 0);
    return page.data ? Array.from(convert(page.data, decoder)) : undefined;
  } catch {
    return undefined;
  }
}

/** The footer's page statistics must show only dictionary-encoded data pages. */
function isAllDictionary(chunk: ColumnChunk): boolean {
  const stats = chunk.meta_data?.encoding_stats;
  if (!stats || stats.length === 0) return false;
  const dataPages = stats.filter((s) => s.page_type === 'DATA_PAGE' || s.page_type === 'DATA_PAGE_V2');
  return dataPages.length > 0 && dataPages.every((s) => DICTIONARY_ENCODINGS.has(s.encoding) || s.count === 0);
}
