import type { CsvDialect } from '../contract/csv-dialect.js';
import type { ByteSource } from './byte-source.js';
import { ByteDialect } from './csv-byte-dialect.js';
import type { RecordSink } from './csv-record.js';
import { CsvScanner } from './csv-scanner.js';
import { CsvBatchBuilder, type WantedColumn } from './csv-batch-builder.js';
import { HashedText, TextValues, type FieldReader } from './csv-field-readers.js';
import { parsedReader } from './text-typed-readers.js';
import { checkNotHeader, EMPTY_FILE, headerNames, type CsvLayout } from './csv-header.js';
import { pickRows } from './csv-row-picker.js';
import { ChunkWindow, DEFAULT_BATCH_ROWS, DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES, type TextReadOptions } from './line-scanner.js';
import { type BatchOptions, type ColumnBatch, type TableFile, type TextRange, UnreadableError } from './table-file.js';
import { plainChunks, sourceRange, textChunks } from './text-chunks.js';
import type { RangeOptions } from './csv-ranges.js';
import { utf8Chunks } from './text-encoding.js';

export interface CsvOptions extends TextReadOptions {
  /** A longer record is reported unreadable and skipped unbuffered (default 16 MiB). */
  readonly maxRecordBytes?: number;
  /** How the file is written (`produces.csv`); RFC 4180 with a header, UTF-8, when absent. */
  readonly dialect?: CsvDialect;
  /** The contract's columns in order: a header-less file's columns, and what hints compare a header with. */
  readonly columns?: readonly string[];
}

/** What every pass over a CSV file shares: the dialect and where the column names come from. */
/**
 * Opens a CSV file (RFC 4180 unless the contract's dialect says otherwise, header row first
 * unless it says none), plain, gzip- or zstd-compressed. Values are strings, or null for a null
 * value (an empty unquoted field by default), unless `parse` or `hashOnly` asks for a column
 * parsed or hashed; rows that cannot be read are reported per batch, not thrown.
 */
export function openCsvFile(source: ByteSource, options: CsvOptions = {}): TableFile {
  const batchRows = Math.max(1, options.batchRows ?? DEFAULT_BATCH_ROWS);
  const maxRecordBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const layout: CsvLayout = { dialect: new ByteDialect(options.dialect), maxRecordBytes, columns: options.columns ?? [] };
  const encoding = layout.dialect.dialect.encoding;
  const window = (): ChunkWindow => new ChunkWindow(utf8Chunks(textChunks(source, chunkBytes), encoding));
  let header: Promise<string[]> | undefined;
  const headerNow = () => (header ??= readHeader(window(), layout));
  return {
    schema: async () => ({ kind: 'text', columns: await headerNow() }),
    batches: (columns, batchOptions = {}) => {
      const builderFor = (names: string[], firstRow = 0) => new CsvBatchBuilder(names.length, wantedColumns(names, columns, batchOptions, batchRows), batchRows, firstRow, maxRecordBytes, layout.dialect);
      const range = batchOptions.textRange;
      if (range === undefined) return readRecords(window(), layout, builderFor);
      return readRange(source, range, { chunkBytes, maxRecordBytes }, layout, headerNow, builderFor);
    },
    readRows: (columns, rows, options = {}) => pickRows(window(), layout, rows, (names) => wantedColumns(names, columns, options, 1)),
  };
}

/**
 * One range of the file's records (csv-ranges.ts): the first read as the file's start is, the
 * others from a record boundary, with the header read apart and rows and lines numbered on
 * from where the range stands. Only a plain file is cut into ranges, so these bytes are text.
 */
async function* readRange(source: ByteSource, range: TextRange, sizes: Required<Pick<RangeOptions, 'chunkBytes' | 'maxRecordBytes'>>, layout: CsvLayout, header: () => Promise<string[]>, builderFor: (names: string[], firstRow?: number) => CsvBatchBuilder): AsyncGenerator<ColumnBatch> {
  const part = sourceRange(source, range.start, range.end);
  const encoding = layout.dialect.dialect.encoding;
  if (range.start === 0) return yield* readRecords(new ChunkWindow(utf8Chunks(textChunks(part, sizes.chunkBytes), encoding)), layout, builderFor);
  const names = await header();
  const from = { names, firstRow: range.firstRow, firstLine: range.firstLine };
  yield* readRecords(new ChunkWindow(plainChunks(part, sizes.chunkBytes)), layout, builderFor, from);
}

/** The requested columns the header has, each with the reader the options ask for. */
function wantedColumns(header: readonly string[], columns: readonly string[], options: BatchOptions, batchRows: number): WantedColumn[] {
  const names = [...new Set(columns)].filter((name) => header.includes(name));
  return names.map((name) => ({ name, index: header.indexOf(name), reader: readerFor(name, options, batchRows) }));
}

function readerFor(name: string, { hashOnly, parse }: BatchOptions, batchRows: number): FieldReader {
  if (hashOnly?.has(name)) return new HashedText(batchRows);
  const type = parse?.get(name);
  return type ? parsedReader(type, batchRows) : new TextValues(batchRows);
}

/** The header's names, or the contract's columns for a file without a header (once its first line is seen to be no header). */
async function readHeader(window: ChunkWindow, layout: CsvLayout): Promise<string[]> {
  const scanner = new CsvScanner(window, layout.maxRecordBytes, layout.dialect);
  const headerless = !layout.dialect.dialect.header;
  let names: string[] | undefined;
  const sink: RecordSink = (record) => {
    if (headerless) checkNotHeader(record, layout.columns);
    names = headerless ? [...layout.columns] : headerNames(record, layout.columns);
    scanner.stop();
  };
  try {
    await scanner.begin();
    do scanner.scan(sink);
    while (names === undefined && (await scanner.refill()));
    if (names === undefined) scanner.finish(sink);
  } finally {
    await window.close();
  }
  // A file without a header and without rows is what DuckDB's COPY (HEADER false) writes for no rows.
  if (names === undefined && headerless) return [...layout.columns];
  if (names === undefined) throw new UnreadableError(EMPTY_FILE);
  return names;
}

/** Where reading starts inside a file: after its header, at a record of a range. */
interface RangeStart {
  readonly names: string[];
  readonly firstRow: number;
  readonly firstLine: number;
}

async function* readRecords(window: ChunkWindow, layout: CsvLayout, targetFor: (header: string[], firstRow?: number) => CsvBatchBuilder, from?: RangeStart): AsyncGenerator<ColumnBatch> {
  const scanner = new CsvScanner(window, layout.maxRecordBytes, layout.dialect);
  const headerless = !layout.dialect.dialect.header;
  let target: CsvBatchBuilder | undefined;
  let first = from === undefined;
  const start = (names: string[], firstRow?: number) => {
    scanner.fieldCap = names.length;
    target = targetFor(names, firstRow);
    scanner.plainRecords = target.takesPlainRecords ? target : undefined;
  };
  const sink: RecordSink = (record) => {
    if (first && headerless) checkNotHeader(record, layout.columns);
    first = false;
    if (target !== undefined) target.add(record);
    else start(headerNames(record, layout.columns));
  };
  try {
    if (from === undefined) {
      await scanner.begin();
      if (headerless) start([...layout.columns]);
    } else {
      scanner.beginAt(from.firstLine);
      start(from.names, from.firstRow);
    }
    do {
      scanner.scan(sink);
      if (target !== undefined) yield* target.takeReady();
    } while (await scanner.refill());
    scanner.finish(sink);
  } finally {
    await window.close();
  }
  if (target === undefined) throw new UnreadableError(EMPTY_FILE);
  target.flush();
  yield* target.takeReady();
}
