import type { ByteSource } from './byte-source.js';
import type { RecordSink } from './csv-record.js';
import { CsvScanner } from './csv-scanner.js';
import { CsvBatchBuilder, type WantedColumn } from './csv-batch-builder.js';
import { HashedText, TextValues, type FieldReader } from './csv-field-readers.js';
import { parsedReader } from './text-typed-readers.js';
import { EMPTY_FILE, headerNames } from './csv-header.js';
import { pickRows } from './csv-row-picker.js';
import { ChunkWindow, DEFAULT_BATCH_ROWS, DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES, type TextReadOptions } from './line-scanner.js';
import { type BatchOptions, type ColumnBatch, type TableFile, type TextRange, UnreadableError } from './table-file.js';
import { plainChunks, sourceRange, textChunks } from './text-chunks.js';
import type { RangeOptions } from './csv-ranges.js';

export interface CsvOptions extends TextReadOptions {
  /** A longer record is reported unreadable and skipped unbuffered (default 16 MiB). */
  readonly maxRecordBytes?: number;
}

/**
 * Opens a CSV file (RFC 4180, comma-separated, header row first), plain or gzip-compressed.
 * Values are strings, or null for an empty unquoted field, unless `parse` or `hashOnly` asks for
 * a column parsed or hashed; rows that cannot be read are reported per batch, not thrown.
 */
export function openCsvFile(source: ByteSource, options: CsvOptions = {}): TableFile {
  const batchRows = Math.max(1, options.batchRows ?? DEFAULT_BATCH_ROWS);
  const maxRecordBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const window = (): ChunkWindow => new ChunkWindow(textChunks(source, chunkBytes));
  let header: Promise<string[]> | undefined;
  const headerNow = () => (header ??= readHeader(window(), maxRecordBytes));
  return {
    schema: async () => ({ kind: 'text', columns: await headerNow() }),
    batches: (columns, batchOptions = {}) => {
      const builderFor = (names: string[], firstRow = 0) => new CsvBatchBuilder(names.length, wantedColumns(names, columns, batchOptions, batchRows), batchRows, firstRow, maxRecordBytes);
      const range = batchOptions.textRange;
      if (range === undefined) return readRecords(window(), maxRecordBytes, builderFor);
      return readRange(source, range, { chunkBytes, maxRecordBytes }, headerNow, builderFor);
    },
    readRows: (columns, rows) => pickRows(window(), maxRecordBytes, rows, (names) => wantedColumns(names, columns, {}, 1)),
  };
}

/**
 * One range of the file's records (csv-ranges.ts): the first read as the file's start is, the
 * others from a record boundary, with the header read apart and rows and lines numbered on
 * from where the range stands. Only a plain file is cut into ranges, so these bytes are text.
 */
async function* readRange(source: ByteSource, range: TextRange, sizes: Required<RangeOptions>, header: () => Promise<string[]>, builderFor: (names: string[], firstRow?: number) => CsvBatchBuilder): AsyncGenerator<ColumnBatch> {
  const part = sourceRange(source, range.start, range.end);
  if (range.start === 0) return yield* readRecords(new ChunkWindow(textChunks(part, sizes.chunkBytes)), sizes.maxRecordBytes, builderFor);
  const names = await header();
  const from = { names, firstRow: range.firstRow, firstLine: range.firstLine };
  yield* readRecords(new ChunkWindow(plainChunks(part, sizes.chunkBytes)), sizes.maxRecordBytes, builderFor, from);
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

async function readHeader(window: ChunkWindow, maxRecordBytes: number): Promise<string[]> {
  const scanner = new CsvScanner(window, maxRecordBytes);
  let names: string[] | undefined;
  const sink: RecordSink = (record) => {
    names = headerNames(record);
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
  if (names === undefined) throw new UnreadableError(EMPTY_FILE);
  return names;
}

/** Where reading starts inside a file: after its header, at a record of a range. */
interface RangeStart {
  readonly names: string[];
  readonly firstRow: number;
  readonly firstLine: number;
}

async function* readRecords(window: ChunkWindow, maxRecordBytes: number, targetFor: (header: string[], firstRow?: number) => CsvBatchBuilder, from?: RangeStart): AsyncGenerator<ColumnBatch> {
  const scanner = new CsvScanner(window, maxRecordBytes);
  let target: CsvBatchBuilder | undefined;
  const start = (names: string[], firstRow?: number) => {
    scanner.fieldCap = names.length;
    scanner.plainRecords = target = targetFor(names, firstRow);
  };
  const sink: RecordSink = (record) => (target !== undefined ? target.add(record) : start(headerNames(record)));
  try {
    if (from === undefined) await scanner.begin();
    else {
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
