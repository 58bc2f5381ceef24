import { GateError } from '../errors.js';
import { parquetRead, type ColumnData, type ColumnMetaData, type Compressors, type FileMetaData } from 'hyparquet';
import type { ByteSource } from './byte-source.js';
import { NUMERIC_TIME } from './column-decoder.js';
import { decimalValues, isDecimal, rawDecimalMetadata } from './exact-decimals.js';
import { guardedCompressors } from './guarded-codecs.js';
import { checkChunkPages, type ChunkToCheck, type DeferredCheck } from './page-checks.js';
import { reason, type ParquetFileInfo } from './parquet-footer.js';
import { hashChunkKeys, keyHashable } from './parquet-key-hashes.js';
import { prefetchedSource, type ByteRange, type PrefetchedSource } from './prefetched-source.js';
import { UnreadableError, type ColumnBatch, type RowGroupInfo } from './table-file.js';

interface GroupChunk {
  readonly name: string;
  readonly meta: ColumnMetaData;
  readonly range: ByteRange;
}

/**
 * Decodes a whole row group of modest size (see group-slices.ts for large ones): its chunks are
 * fetched together and their pages checked before decoding; `hashOnly` columns (see BatchOptions)
 * are hashed from their pages where they can be.
 */
export async function readGroup(file: ByteSource, info: ParquetFileInfo, columns: readonly string[], group: RowGroupInfo, hashOnly?: ReadonlySet<string>): Promise<ColumnBatch> {
  const { rowStart, rowCount } = group;
  const chunks = columns.length > 0 ? groupChunks(info.metadata, group.index, columns) : [];
  const source = chunks.length > 0 ? await prefetchedSource(file, chunks.map((c) => c.range)) : file;
  const pieces = new Map<string, ColumnData[]>(columns.map((name) => [name, []]));
  const hashes = new Map<string, Float64Array>();
  if (columns.length > 0 && rowCount > 0) {
    try {
      const checked = await checkPages(source, info, chunks, group.rowCount);
      const compressors = guardedCompressors(checked.deferred);
      hashKeyChunks(info, checked.chunks, hashOnly, compressors, hashes);
      const decode = columns.filter((name) => !hashes.has(name));
      if (decode.length > 0) {
        await parquetRead({
          file: source, metadata: rawDecimalMetadata(info.metadata), columns: decode, rowStart, rowEnd: rowStart + rowCount,
          compressors, parsers: NUMERIC_TIME, utf8: false,
          onChunk: (chunk) => pieces.get(chunk.columnName)?.push(chunk),
        });
      }
    } catch (error) {
      if (error instanceof GateError) throw error; // storage failed: retry, do not blame the file
      throw new UnreadableError(`cannot decode rows ${rowStart}-${rowStart + rowCount - 1}: ${reason(error)}`, { cause: error });
    }
  }
  const values = new Map<string, ArrayLike<unknown>>();
  for (const [name, data] of pieces) if (!hashes.has(name)) values.set(name, exactDecimals(info, name, assemble(name, data, rowStart, rowCount)));
  return { group, rowStart, rowCount, columns: values, ...(hashes.size > 0 ? { hashes } : {}) };
}

/** A decimal column hyparquet left unscaled (rawDecimalMetadata), as exact values. */
function exactDecimals(info: ParquetFileInfo, name: string, values: ArrayLike<unknown>): ArrayLike<unknown> {
  const element = info.elements.get(name);
  return element && isDecimal(element) ? decimalValues(values, element.scale ?? 0) : values;
}

/** Key columns hashed from their pages; one whose pages this cannot read stays for hyparquet. */
function hashKeyChunks(info: ParquetFileInfo, chunks: ReadonlyMap<string, ChunkToCheck>, hashOnly: ReadonlySet<string> | undefined, compressors: Compressors, into: Map<string, Float64Array>): void {
  for (const name of hashOnly ?? []) {
    const chunk = chunks.get(name);
    const element = info.elements.get(name);
    if (!chunk || !element || !keyHashable(element)) continue;
    const hashes = hashChunkKeys(chunk, compressors);
    if (hashes) into.set(name, hashes);
  }
}

/** The chunks hyparquet will decode for these columns: every chunk whose path starts with one. */
function groupChunks(metadata: FileMetaData, groupIndex: number, columns: readonly string[]): GroupChunk[] {
  const wanted = new Set(columns);
  const chunks: GroupChunk[] = [];
  for (const chunk of metadata.row_groups[groupIndex]?.columns ?? []) {
    const meta = chunk.meta_data;
    if (!meta || !wanted.has(meta.path_in_schema[0] ?? '')) continue;
    // `||` as hyparquet does: some writers put 0 in dictionary_page_offset for "none".
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    chunks.push({ name: meta.path_in_schema.join('.'), meta, range: { start, end: start + Number(meta.total_compressed_size) } });
  }
  return chunks;
}

/** Walks each top-level chunk's pages; nested paths are refused by hyparquet before any decoding. */
async function checkPages(source: ByteSource | PrefetchedSource, info: ParquetFileInfo, chunks: readonly GroupChunk[], groupRows: number): Promise<{ deferred: DeferredCheck[]; chunks: Map<string, ChunkToCheck> }> {
  const deferred: DeferredCheck[] = [];
  const checked = new Map<string, ChunkToCheck>();
  for (const { name, meta, range } of chunks) {
    const element = info.elements.get(name);
    if (meta.path_in_schema.length !== 1 || !element) continue;
    const bytes = ('view' in source ? source.view(range.start, range.end) : undefined) ?? new Uint8Array(await source.slice(range.start, range.end));
    const chunk: ChunkToCheck = { name, bytes, meta, defined: element.repetition_type !== 'REQUIRED', groupRows };
    deferred.push(...checkChunkPages(chunk));
    checked.set(name, chunk);
  }
  return { deferred, chunks: checked };
}

/** Joins the page-sized pieces of one column into one array covering exactly the requested rows. */
function assemble(name: string, chunks: ColumnData[], rowStart: number, rowCount: number): ArrayLike<unknown> {
  const only = chunks[0];
  if (chunks.length === 1 && only && only.rowStart === rowStart && only.columnData.length === rowCount) return only.columnData;
  // Counted before allocating: the row count comes from the footer, the values from the pages.
  const overlap = (chunk: ColumnData) => Math.max(0, Math.min(chunk.rowStart + chunk.columnData.length, rowStart + rowCount) - Math.max(chunk.rowStart, rowStart));
  const filled = chunks.reduce((sum, chunk) => sum + overlap(chunk), 0);
  if (filled !== rowCount) throw new UnreadableError(`column "${name}" has ${filled} values in rows ${rowStart}-${rowStart + rowCount - 1}; expected ${rowCount}`);
  const out = new Array<unknown>(rowCount);
  for (const chunk of chunks) {
    const from = Math.max(chunk.rowStart, rowStart);
    const to = Math.min(chunk.rowStart + chunk.columnData.length, rowStart + rowCount);
    for (let row = from; row < to; row++) out[row - rowStart] = chunk.columnData[row - chunk.rowStart];
  }
  return out;
}
