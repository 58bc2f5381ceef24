import { readFileSync } from 'node:fs';
import { parquetMetadata } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';

/** How a writer laid a file out: what the matrix claims to cover, measured from the bytes. */
export interface FileLayout {
  readonly rowGroups: number;
  /** The most data pages any one column chunk has. */
  readonly maxDataPages: number;
  /** Page types in the file, e.g. DATA_PAGE_V2. */
  readonly pageTypes: ReadonlySet<string>;
  /** Data-page encodings in the file, e.g. RLE_DICTIONARY, DELTA_BINARY_PACKED. */
  readonly encodings: ReadonlySet<string>;
  /** Some chunk has both dictionary-encoded and other data pages (a dictionary that overflowed). */
  readonly dictionaryFallback: boolean;
}

/** Walks every page header of every column chunk (the writer's own, not a reader's view). */
export function fileLayout(path: string): FileLayout {
  const bytes = readFileSync(path);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = parquetMetadata(buffer);
  const pageTypes = new Set<string>();
  const encodings = new Set<string>();
  let maxDataPages = 0;
  let dictionaryFallback = false;
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data!;
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      const reader = { view: new DataView(buffer), offset: start };
      const chunkEncodings = new Set<string>();
      let dataPages = 0;
      while (reader.offset < start + Number(meta.total_compressed_size)) {
        const header = parquetHeader(reader);
        pageTypes.add(header.type);
        const encoding = header.data_page_header?.encoding ?? header.data_page_header_v2?.encoding;
        if (encoding) {
          dataPages++;
          chunkEncodings.add(encoding);
          encodings.add(encoding);
        }
        reader.offset += header.compressed_page_size;
      }
      const dictionary = [...chunkEncodings].some((e) => e.endsWith('DICTIONARY'));
      dictionaryFallback ||= dictionary && chunkEncodings.size > 1;
      maxDataPages = Math.max(maxDataPages, dataPages);
    }
  }
  return { rowGroups: metadata.row_groups.length, maxDataPages, pageTypes, encodings, dictionaryFallback };
}
