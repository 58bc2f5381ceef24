import type { ByteSource } from './byte-source.js';
import { CsvScanner, type CsvRecord, type RecordSink } from './csv-scanner.js';
import { ChunkWindow, DEFAULT_BATCH_ROWS, DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES, type TextReadOptions } from './line-scanner.js';
import { type ColumnBatch, type TableFile, type UnreadableRow, UnreadableError } from './table-file.js';
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

/** Collects records into batches of the requested columns. */
class CsvBatchBuilder {
  readonly ready: ColumnBatch[] = [];
  private rowStart = 0;
  private count = 0;
  private unreadable: UnreadableRow[] = [];
  private values: (string | null | undefined)[][];
  private readonly wanted: { readonly name: string; readonly index: number }[];

  constructor(
    private readonly header: readonly string[],
    columns: readonly string[],
    private readonly batchRows: number,
  ) {
    const names = [...new Set(columns)].filter((name) => header.includes(name));
    this.wanted = names.map((name) => ({ name, index: header.indexOf(name) }));
    this.values = this.wanted.map(() => []);
  }

  add(record: CsvRecord): void {
    // A blank line is a record of one empty field: a null row where the header has one column
    // (DuckDB writes a null that way), and nothing where it has more.
    if (record.blank && this.header.length > 1) return;
    const reason =
      record.problem ??
      (record.fieldCount === this.header.length ? undefined : `expected ${this.header.length} fields as in the header, found ${record.fieldCount}`);
    if (reason === undefined) {
      for (let i = 0; i < this.wanted.length; i++) this.values[i]!.push(record.field(this.wanted[i]!.index));
    } else {
      this.unreadable.push({ row: this.rowStart + this.count, line: record.line, reason });
      for (const column of this.values) column.push(undefined);
    }
    if (++this.count === this.batchRows) this.flush();
  }

  flush(): void {
    if (this.count === 0) return;
    const columns = new Map<string, ArrayLike<unknown>>(this.wanted.map((w, i) => [w.name, this.values[i]!]));
    const batch: ColumnBatch = { rowStart: this.rowStart, rowCount: this.count, columns };
    this.ready.push(this.unreadable.length > 0 ? { ...batch, unreadableRows: this.unreadable } : batch);
    this.rowStart += this.count;
    this.count = 0;
    this.unreadable = [];
    this.values = this.wanted.map(() => []);
  }

  takeReady(): ColumnBatch[] {
    return this.ready.splice(0);
  }
}

/**
 * Opens a CSV file (RFC 4180, comma-separated, header row first), plain or gzip-compressed.
 * Values are strings, or null for an empty unquoted field; rows that cannot be read are
 * reported per batch, not thrown.
 */
export function openCsvFile(source: ByteSource, options: CsvOptions = {}): TableFile {
  const batchRows = Math.max(1, options.batchRows ?? DEFAULT_BATCH_ROWS);
  const maxRecordBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const window = (): ChunkWindow => new ChunkWindow(textChunks(source, chunkBytes));
  let header: Promise<string[]> | undefined;
  return {
    schema: async () => ({ kind: 'text', columns: await (header ??= readHeader(window(), maxRecordBytes)) }),
    batches: (columns) => readBatches(window(), maxRecordBytes, columns, batchRows),
  };
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

async function* readBatches(window: ChunkWindow, maxRecordBytes: number, columns: readonly string[], batchRows: number): AsyncGenerator<ColumnBatch> {
  const scanner = new CsvScanner(window, maxRecordBytes);
  let builder: CsvBatchBuilder | undefined;
  const sink: RecordSink = (record) => {
    if (builder !== undefined) return builder.add(record);
    const names = headerNames(record);
    scanner.fieldCap = names.length;
    builder = new CsvBatchBuilder(names, columns, batchRows);
  };
  try {
    await scanner.begin();
    do {
      scanner.scan(sink);
      if (builder !== undefined) yield* builder.takeReady();
    } while (await scanner.refill());
    scanner.finish(sink);
  } finally {
    await window.close();
  }
  if (builder === undefined) throw new UnreadableError(EMPTY_FILE);
  builder.flush();
  yield* builder.takeReady();
}
