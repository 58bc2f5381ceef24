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
import { PAGE_BUDGET_BYTES } from './page-budget.js';

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
export async function readGroup(file: ByteSource, info: ParquetFileInfo, columns: readonly string[], group: RowGroupInfo, hashOnly?: ReadonlySet<string>, budgetBytes = PAGE_BUDGET_BYTES): Promise<ColumnBatch> {
  const { rowStart, rowCount } = group;
  const chunks = columns.length > 0 ? groupChunks(info.metadata, group.index, columns) : [];
  const source = chunks.length > 0 ? await prefetchedSource(file, chunks.map((c) => c.range)) : file;
  const pieces = new Map<string, ColumnData[]>(columns.map((name) => [name, []]));
  const hashes = new Map<string, Float64Array>();
  if (columns.length > 0 && rowCount > 0) {
    try {
      const checked = await checkPages(source, info, chunks, group);
      const compressors = guardedCompressors(checked.deferred);
      hashKeyChunks(info, checked.chunks, hashOnly, compressors, hashes);
      const decode = columns.filter((name) => !hashes.has(name));
      // Column by column, or a few at a time, when their pages together would pass the budget.
      for (const part of budgetParts(decode, checked.declared, budgetBytes)) {
        await parquetRead({
          file: source, metadata: rawDecimalMetadata(info.metadata), columns: part, rowStart, rowEnd: rowStart + rowCount,
          compressors, parsers: NUMERIC_TIME, utf8: false,
          onChunk: (chunk) => pieces.get(chunk.columnName)?.push(ownBuffer(chunk)),
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

/**
 * hyparquet reads PLAIN numbers as a view on the decoded page: 8,192 values kept that way would
 * keep a page of any size alive (one may declare 256 MiB) for as long as the batch. A view on
 * much more than itself is copied out.
 */
function ownBuffer(chunk: ColumnData): ColumnData {
  const data = chunk.columnData;
  return ArrayBuffer.isView(data) && data.buffer.byteLength > 2 * data.byteLength + 4096 ? { ...chunk, columnData: data.slice() } : chunk;
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

/**
 * Columns in parts whose pages (`declared`: each column's pages summed) fit the budget together,
 * read one part after another: hyparquet may leave all of a read's pages to be collected at once,
 * and those of the part before may not be collected yet, so a part takes half the budget. One
 * part when all fit; a column over it alone is a part of its own (each page within the page limit).
 */
function budgetParts(columns: readonly string[], declared: ReadonlyMap<string, number>, budgetBytes: number): string[][] {
  const parts: string[][] = [];
  let part: string[] = [];
  let bytes = 0;
  for (const name of columns) {
    const size = declared.get(name) ?? 0;
    if (part.length > 0 && bytes + size > budgetBytes / 2) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(name);
    bytes += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/** Walks each top-level chunk's pages; nested paths are refused by hyparquet before any decoding. */
async function checkPages(source: ByteSource | PrefetchedSource, info: ParquetFileInfo, chunks: readonly GroupChunk[], group: RowGroupInfo): Promise<{ deferred: DeferredCheck[]; chunks: Map<string, ChunkToCheck>; declared: Map<string, number> }> {
  const deferred: DeferredCheck[] = [];
  const checked = new Map<string, ChunkToCheck>();
  const declared = new Map<string, number>();
  for (const { name, meta, range } of chunks) {
    const element = info.elements.get(name);
    if (meta.path_in_schema.length !== 1 || !element) continue;
    const bytes = ('view' in source ? source.view(range.start, range.end) : undefined) ?? new Uint8Array(await source.slice(range.start, range.end));
    const chunk: ChunkToCheck = { name, bytes, meta, defined: element.repetition_type !== 'REQUIRED', groupRows: group.rowCount, group: group.index };
    const sizes: number[] = [];
    deferred.push(...checkChunkPages(chunk, sizes));
    checked.set(name, chunk);
    declared.set(name, sizes.reduce((sum, size) => sum + size, 0));
  }
  return { deferred, chunks: checked, declared };
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
