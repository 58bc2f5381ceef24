import { parquetMetadataAsync, parquetRead, parquetSchema, type ColumnData, type FileMetaData, type ParquetParsers } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { ByteSource } from './byte-source.js';
import { describeElement, storedType } from './parquet-types.js';
import { chunkStatistics } from './parquet-statistics.js';
import { prefetchedSource, type ByteRange } from './prefetched-source.js';
import { UnreadableError, type ColumnBatch, type FileSchema, type RowGroupInfo, type TableFile, type TypedColumn } from './table-file.js';

/** Timestamps and dates stay numbers (epoch ms): a Date per value costs memory and time. */
const NUMERIC_TIME: Partial<ParquetParsers> = {
  timestampFromMilliseconds: (millis) => Number(millis),
  timestampFromMicroseconds: (micros) => Number(micros) / 1_000,
  timestampFromNanoseconds: (nanos) => Number(nanos) / 1_000_000,
  dateFromDays: (days) => days * 86_400_000,
};

/** Footers of files with a few hundred columns fit; larger ones cost a second read. */
const FOOTER_GUESS = 64 * 1024;

/** Reads a Parquet file one row group at a time, decoding only the requested columns. */
export function openParquetFile(source: ByteSource): TableFile {
  let metadata: Promise<FileMetaData> | undefined;
  const loadMetadata = () => (metadata ??= readMetadata(source));
  return {
    async schema() {
      return typedSchema(await loadMetadata());
    },
    async *batches(columns, select, range) {
      const meta = await loadMetadata();
      const readable = new Set(typedSchema(meta).columns.filter((c) => c.type.kind !== 'unsupported').map((c) => c.name));
      const wanted = columns.filter((name) => readable.has(name));
      for (const group of rowGroups(meta, new Set(wanted))) {
        if (range && (group.index < range.from || group.index >= range.to)) continue;
        const chosen = select ? select(group).filter((name) => readable.has(name)) : wanted;
        yield await readRows(source, meta, chosen, group, group.rowStart, group.rowCount);
      }
    },
    async *readRows(columns, rows) {
      const meta = await loadMetadata();
      const groups = rowGroups(meta, new Set());
      const wanted = columns.filter((name) => typedSchema(meta).columns.some((c) => c.name === name && c.type.kind !== 'unsupported'));
      for (const row of [...new Set(rows)].sort((a, b) => a - b)) {
        const group = groups.find((g) => row >= g.rowStart && row < g.rowStart + g.rowCount);
        if (group) yield await readRows(source, meta, wanted, group, row, 1);
      }
    },
  };
}

async function readMetadata(source: ByteSource): Promise<FileMetaData> {
  if (source.byteLength < 12) throw new UnreadableError(`not a Parquet file: ${source.byteLength} bytes is shorter than the smallest Parquet file`);
  try {
    return await parquetMetadataAsync(source, { parsers: NUMERIC_TIME, initialFetchSize: FOOTER_GUESS });
  } catch (error) {
    throw new UnreadableError(`cannot read the Parquet footer: ${reason(error)}`, { cause: error });
  }
}

function typedSchema(metadata: FileMetaData): FileSchema & { kind: 'typed' } {
  const root = parquetSchema(metadata);
  const columns: TypedColumn[] = root.children.map((child) => ({
    name: child.element.name,
    type: child.children.length > 0 ? { kind: 'unsupported', detail: 'a nested group' } : storedType(child.element),
    physical: describeElement(child.element, child.children.length),
  }));
  return { kind: 'typed', columns, rows: Number(metadata.num_rows), groupRows: metadata.row_groups.map((g) => Number(g.num_rows)) };
}

/**
 * Decodes rows [rowStart, rowStart + rowCount) of one row group. A whole group is read chunk by
 * chunk; a few rows are read page by page through the offset index when the file has one.
 */
async function readRows(file: ByteSource, metadata: FileMetaData, columns: readonly string[], group: RowGroupInfo, rowStart: number, rowCount: number): Promise<ColumnBatch> {
  const wholeGroup = rowCount === group.rowCount;
  // A whole group's column chunks are fetched together; a few rows go page by page instead.
  const source = wholeGroup && columns.length > 0 ? await prefetchedSource(file, chunkRanges(metadata, group.index, columns)) : file;
  const pieces = new Map<string, ColumnData[]>(columns.map((name) => [name, []]));
  if (columns.length > 0 && rowCount > 0) {
    try {
      await parquetRead({
        file: source, metadata, columns: [...columns], rowStart, rowEnd: rowStart + rowCount,
        compressors, parsers: NUMERIC_TIME, utf8: true, useOffsetIndex: !wholeGroup,
        onChunk: (chunk) => pieces.get(chunk.columnName)?.push(chunk),
      });
    } catch (error) {
      throw new UnreadableError(`cannot decode rows ${rowStart}-${rowStart + rowCount - 1}: ${reason(error)}`, { cause: error });
    }
  }
  const values = new Map<string, ArrayLike<unknown>>();
  for (const [name, chunks] of pieces) values.set(name, assemble(name, chunks, rowStart, rowCount));
  return { group, rowStart, rowCount, columns: values };
}

/** The byte ranges of the named columns' chunks in one row group. */
function chunkRanges(metadata: FileMetaData, groupIndex: number, columns: readonly string[]): ByteRange[] {
  const wanted = new Set(columns);
  const ranges: ByteRange[] = [];
  for (const chunk of metadata.row_groups[groupIndex]?.columns ?? []) {
    const meta = chunk.meta_data;
    if (!meta || !wanted.has(meta.path_in_schema[0] ?? '')) continue;
    const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
    ranges.push({ start, end: start + Number(meta.total_compressed_size) });
  }
  return ranges;
}

function rowGroups(metadata: FileMetaData, columns: ReadonlySet<string>): RowGroupInfo[] {
  const leaves = metadata.schema.slice(1);
  let rowStart = 0;
  return metadata.row_groups.map((group, index) => {
    const rowCount = Number(group.num_rows);
    const statistics = new Map();
    for (const chunk of group.columns) {
      const name = chunk.meta_data?.path_in_schema.join('.');
      const element = leaves.find((leaf) => leaf.name === name);
      const stats = name !== undefined && columns.has(name) && element ? chunkStatistics(chunk.meta_data?.statistics, element) : undefined;
      if (stats && name !== undefined) statistics.set(name, stats);
    }
    const info = { index, rowStart, rowCount, statistics };
    rowStart += rowCount;
    return info;
  });
}

/** Joins the page-sized pieces of one column into one array covering exactly the row group. */
function assemble(name: string, chunks: ColumnData[], rowStart: number, rowCount: number): ArrayLike<unknown> {
  const only = chunks[0];
  if (chunks.length === 1 && only && only.rowStart === rowStart && only.columnData.length === rowCount) return only.columnData;
  const out = new Array<unknown>(rowCount);
  let filled = 0;
  for (const chunk of chunks) {
    const from = Math.max(chunk.rowStart, rowStart);
    const to = Math.min(chunk.rowStart + chunk.columnData.length, rowStart + rowCount);
    for (let row = from; row < to; row++) out[row - rowStart] = chunk.columnData[row - chunk.rowStart];
    filled += Math.max(0, to - from);
  }
  if (filled !== rowCount) throw new UnreadableError(`column "${name}" has ${filled} values in rows ${rowStart}-${rowStart + rowCount - 1}; expected ${rowCount}`);
  return out;
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^parquet /, '');
}
