import type { ByteSource } from './byte-source.js';
import { CsvScanner, type CsvRecord, type RecordSink } from './csv-scanner.js';
import { CsvBatchBuilder, type WantedColumn } from './csv-batch-builder.js';
import { HashedText, parsedReader, TextValues, type FieldReader } from './csv-field-readers.js';
import { CsvRowPicker } from './csv-row-picker.js';
import { ChunkWindow, DEFAULT_BATCH_ROWS, DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES, type TextReadOptions } from './line-scanner.js';
import { type BatchOptions, type ColumnBatch, type TableFile, UnreadableError } from './table-file.js';
import { textChunks } from './text-chunks.js';
import { otherDelimiter } from './csv-delimiter.js';

export interface CsvOptions extends TextReadOptions {
  /** A longer record is reported unreadable and skipped unbuffered (default 16 MiB). */
  readonly maxRecordBytes?: number;
}

/** Checks the header record and returns its column names. */
function headerNames(record: CsvRecord): string[] {
  if (record.problem !== undefined) {
    throw new UnreadableError(`the CSV header (line ${record.line}) cannot be read: ${record.problem}`);
  }
  if (record.blank) throw new UnreadableError(`the CSV header (line ${record.line}) is empty; the first line must name the columns`);
  const delimiter = record.fieldCount === 1 ? otherDelimiter(record.field(0) ?? '') : undefined;
  if (delimiter !== undefined) throw new UnreadableError(delimiter);
  const names: string[] = [];
  const seen = new Map<string, number>();
  for (let k = 0; k < record.fieldCount; k++) {
    const name = record.field(k) ?? '';
    if (name === '') throw new UnreadableError(`column ${k + 1} of the CSV header has no name`);
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw new UnreadableError(`duplicate column "${name}" in the header (columns ${earlier + 1} and ${k + 1})`);
    }
    seen.set(name, k);
    names.push(name);
  }
  return names;
}

const EMPTY_FILE = 'the CSV file is empty; it needs a header row naming the columns';

/** What takes the records after the header: batches of every row, or only some rows. */
export interface RecordTarget {
  add(record: CsvRecord): void;
  flush(): void;
  takeReady(): ColumnBatch[];
  /** Nothing after this record is wanted: reading stops. */
  readonly done?: boolean;
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
  return {
    schema: async () => ({ kind: 'text', columns: await (header ??= readHeader(window(), maxRecordBytes)) }),
    batches: (columns, batchOptions = {}) =>
      readRecords(window(), maxRecordBytes, (names) => new CsvBatchBuilder(names.length, wantedColumns(names, columns, batchOptions, batchRows), batchRows)),
    // One pass that decodes only the rows asked for, and stops after the last of them.
    readRows: (columns, rows) =>
      readRecords(window(), maxRecordBytes, (names) => new CsvRowPicker(names.length, rows, () => wantedColumns(names, columns, {}, 1))),
  };
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

async function* readRecords(window: ChunkWindow, maxRecordBytes: number, targetFor: (header: string[]) => RecordTarget): AsyncGenerator<ColumnBatch> {
  const scanner = new CsvScanner(window, maxRecordBytes);
  let target: RecordTarget | undefined;
  const sink: RecordSink = (record) => {
    if (target === undefined) {
      const names = headerNames(record);
      scanner.fieldCap = names.length;
      target = targetFor(names);
      return;
    }
    target.add(record);
    if (target.done) scanner.stop();
  };
  try {
    await scanner.begin();
    do {
      scanner.scan(sink);
      if (target !== undefined) yield* target.takeReady();
    } while (!target?.done && (await scanner.refill()));
    if (!target?.done) scanner.finish(sink);
  } finally {
    await window.close();
  }
  if (target === undefined) throw new UnreadableError(EMPTY_FILE);
  target.flush();
  yield* target.takeReady();
}
