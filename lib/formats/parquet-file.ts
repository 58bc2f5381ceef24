import { parquetSchema, type ColumnChunk, type FileMetaData, type SchemaElement } from 'hyparquet';
import type { ByteSource } from './byte-source.js';
import { describeElement, storedType } from './parquet-types.js';
import { chunkStatistics } from './parquet-statistics.js';
import { parseCreatedBy, trustedStatistics, writerKnown } from './statistics-trust.js';
import { readDictionary } from './parquet-dictionary.js';
import { NUMERIC_TIME } from './column-decoder.js';
import { readFooter, type ParquetFileInfo } from './parquet-footer.js';
import { readGroup } from './parquet-rows.js';
import { groupRowsAt, groupSlices, WHOLE_GROUP_VALUES } from './group-slices.js';
import type { FileSchema, RowGroupInfo, TableFile, TypedColumn } from './table-file.js';

interface LoadedFile extends ParquetFileInfo {
  readonly schema: FileSchema & { kind: 'typed' };
}

export interface ParquetReadOptions {
  /** Row groups holding more values than this (rows × columns read) are read in slices. */
  readonly wholeGroupValues?: number;
  /** Snappy pages of a sliced group larger than this (compressed) are read from the file as they are decoded; unset, those larger than the page window. */
  readonly streamPageBytes?: number;
  /** Bytes of decoded pages a row group's columns may hold at once (see page-budget.ts): 256 MiB unless told. */
  readonly pageBudgetBytes?: number;
}

/**
 * Reads a Parquet file one row group at a time, decoding only the requested columns. The footer
 * is checked before it is trusted and every page before it is decoded (see parquet-limits.ts), so
 * a hostile file ends as an UnreadableError, not an exhausted process.
 */
export function openParquetFile(source: ByteSource, { wholeGroupValues = WHOLE_GROUP_VALUES, streamPageBytes, pageBudgetBytes }: ParquetReadOptions = {}): TableFile {
  const reading = { streamPageBytes, pageBudgetBytes };
  let loaded: Promise<LoadedFile> | undefined;
  const load = () => (loaded ??= loadFile(source));
  return {
    async schema() {
      return (await load()).schema;
    },
    async *batches(columns, { select, groups: range, hashOnly, presenceOnly, rawText, textBytes, pick, vectors } = {}) {
      const file = await load();
      const readable = new Set(file.schema.columns.filter((c) => c.type.kind !== 'unsupported').map((c) => c.name));
      const wanted = columns.filter((name) => readable.has(name));
      for (const group of rowGroups(source, file, new Set(wanted))) {
        if (range && (group.index < range.from || group.index >= range.to)) continue;
        const chosen = select ? (await select(group)).filter((name) => readable.has(name)) : wanted;
        if (group.rowCount * chosen.length > wholeGroupValues || hasInt32Deltas(file.metadata, group.index, chosen)) yield* groupSlices(source, file, group, chosen, { hashOnly, presenceOnly, rawText, textBytes, pick, vectors }, reading);
        else yield await readGroup(source, file, chosen, group, hashOnly, pageBudgetBytes);
      }
    },
    async *readRows(columns, rows) {
      const file = await load();
      const groups = rowGroups(source, file, new Set());
      const wanted = columns.filter((name) => file.schema.columns.some((c) => c.name === name && c.type.kind !== 'unsupported'));
      const sorted = [...new Set(rows)].sort((a, b) => a - b);
      for (const group of groups) {
        const inGroup = sorted.filter((row) => row >= group.rowStart && row < group.rowStart + group.rowCount);
        // Pages are walked from each chunk's start and checked as a full read checks them, never
        // found through the offset index: hyparquet would decode whatever its locations point at.
        if (inGroup.length > 0) yield* groupRowsAt(source, file, group, wanted, inGroup, reading);
      }
    },
  };
}

/** The footer (checked: see readFooter), then the schema built from it, once per file. */
async function loadFile(source: ByteSource): Promise<LoadedFile> {
  const metadata = await readFooter(source, NUMERIC_TIME);
  const root = parquetSchema(metadata);
  const elements = new Map<string, SchemaElement>();
  for (const child of root.children) if (!elements.has(child.element.name)) elements.set(child.element.name, child.element);
  return { metadata, elements, schema: typedSchema(metadata, root) };
}

function typedSchema(metadata: FileMetaData, root: ReturnType<typeof parquetSchema>): FileSchema & { kind: 'typed' } {
  const columns: TypedColumn[] = root.children.map((child) => ({
    name: child.element.name,
    type: child.children.length > 0 ? { kind: 'unsupported', detail: 'a nested group' } : storedType(child.element),
    physical: describeElement(child.element, child.children.length),
  }));
  return { kind: 'typed', columns, groupRows: metadata.row_groups.map((g) => Number(g.num_rows)) };
}

/** Uses the loaded file's top-level elements by name: wide files have thousands of chunks. */
function rowGroups(source: ByteSource, { metadata, elements }: ParquetFileInfo, columns: ReadonlySet<string>): RowGroupInfo[] {
  let rowStart = 0;
  const writer = parseCreatedBy(metadata.created_by);
  return metadata.row_groups.map((group, index) => {
    const rowCount = Number(group.num_rows);
    const statistics = new Map();
    const chunks = new Map<string, ColumnChunk>();
    for (const chunk of group.columns) {
      // A forged footer can make meta_data any falsy value, not only undefined.
      const meta = chunk.meta_data;
      if (!meta) continue;
      const name = meta.path_in_schema.join('.');
      const element = elements.get(name);
      // Only what statistics-trust.ts believes of this writer and row group reaches the checks.
      const stats = columns.has(name) && element ? chunkStatistics(trustedStatistics(meta.statistics, element, writer, rowCount), element) : undefined;
      if (stats) statistics.set(name, stats);
      if (columns.has(name)) chunks.set(name, chunk);
    }
    // A dictionary proof rests on the footer's encoding_stats: believed only of a known writer.
    const dictionary = writerKnown(writer) ? async (name: string) => {
      const chunk = chunks.get(name);
      return chunk && readDictionary(source, metadata, chunk);
    } : undefined;
    const info: RowGroupInfo = { index, rowStart, rowCount, statistics, dictionary };
    rowStart += rowCount;
    return info;
  });
}

/**
 * Whether a chunk read holds INT32 delta pages: the sliced reader decodes those itself (see
 * delta-binary.ts), where hyparquet misreads values wider than 32 bits (DuckDB's UINTEGER). A footer that hides one
 * leaves it to hyparquet, and the page checks refuse what it would misread (see walkDeltaStream).
 */
function hasInt32Deltas(metadata: FileMetaData, groupIndex: number, columns: readonly string[]): boolean {
  return (metadata.row_groups[groupIndex]?.columns ?? []).some((chunk) => {
    const meta = chunk.meta_data || undefined;
    return meta !== undefined && meta.path_in_schema.length === 1 && columns.includes(meta.path_in_schema[0]!)
      && meta.type === 'INT32' && (meta.encodings ?? []).includes('DELTA_BINARY_PACKED');
  });
}
