import type { ColumnChunk, Compressors, FileMetaData, ParquetParsers } from 'hyparquet';
import { parquetHeader, readPage } from 'hyparquet/src/column.js';
import { convert } from 'hyparquet/src/convert.js';
import { DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { getSchemaPath } from 'hyparquet/src/schema.js';
import type { ByteSource } from './byte-source.js';

/** A dictionary page larger than this is not worth fetching to save a decode. */
const MAX_DICTIONARY_BYTES = 8 * 1024 * 1024;
const DICTIONARY_ENCODINGS = new Set(['PLAIN_DICTIONARY', 'RLE_DICTIONARY']);

/**
 * The distinct values of a column chunk whose every data page is dictionary-encoded: every
 * value in the chunk is one of these, so a rule all of them keep holds for the whole chunk.
 * Undefined when the footer cannot prove the chunk is all dictionary (no encoding stats, a
 * fallback to plain pages) or the dictionary cannot be read.
 */
export async function readDictionary(source: ByteSource, metadata: FileMetaData, chunk: ColumnChunk, options: { compressors?: Compressors; parsers: Partial<ParquetParsers> }): Promise<readonly unknown[] | undefined> {
  const meta = chunk.meta_data;
  if (!meta || meta.dictionary_page_offset === undefined || !isAllDictionary(chunk)) return undefined;
  const start = Number(meta.dictionary_page_offset);
  const end = Number(meta.data_page_offset);
  if (!(start > 0 && end > start && end - start <= MAX_DICTIONARY_BYTES && end <= source.byteLength)) return undefined;
  try {
    const bytes = await source.slice(start, end);
    const reader = { view: new DataView(bytes), offset: 0 };
    const header = parquetHeader(reader);
    if (header.type !== 'DICTIONARY_PAGE') return undefined;
    const schemaPath = getSchemaPath(metadata.schema, meta.path_in_schema);
    const element = schemaPath.at(-1)?.element;
    if (!element) return undefined;
    const decoder = { pathInSchema: meta.path_in_schema, type: meta.type, element, schemaPath, codec: meta.codec, parsers: { ...DEFAULT_PARSERS, ...options.parsers }, compressors: options.compressors, utf8: true };
    const page = readPage(reader, header, decoder, undefined, undefined, 0);
    return page.data ? Array.from(convert(page.data, decoder)) : undefined;
  } catch {
    return undefined; // the data pages will be decoded, and say what is wrong if anything is
  }
}

/** The footer's page statistics must show only dictionary-encoded data pages. */
function isAllDictionary(chunk: ColumnChunk): boolean {
  const stats = chunk.meta_data?.encoding_stats;
  if (!stats || stats.length === 0) return false;
  const dataPages = stats.filter((s) => s.page_type === 'DATA_PAGE' || s.page_type === 'DATA_PAGE_V2');
  return dataPages.length > 0 && dataPages.every((s) => DICTIONARY_ENCODINGS.has(s.encoding) || s.count === 0);
}
