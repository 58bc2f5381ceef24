import type { ByteSource } from './byte-source.js';
import { JsonLinesBatchBuilder } from './jsonl-batch-builder.js';
import { JsonValues, type JsonFieldReader } from './jsonl-field-readers.js';
import { ChunkWindow, DEFAULT_BATCH_ROWS, DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES, LineScanner, type LineSink, type TextReadOptions } from './line-scanner.js';
import { JsonRowPicker } from './jsonl-row-picker.js';
import type { BatchOptions, ColumnBatch, TableFile } from './table-file.js';
import { parsedReader } from './text-typed-readers.js';
import { plainChunks, sourceRange, textChunks } from './text-chunks.js';

export interface JsonLinesOptions extends TextReadOptions {
  /** A longer line is reported unreadable and skipped unbuffered (default 16 MiB). */
  readonly maxLineBytes?: number;
}

/**
 * Opens a JSON Lines file, plain or gzip-compressed: one JSON object per non-blank line. Columns
 * are discovered row by row, so the schema is dynamic; lines that are no object are reported per
 * batch, not thrown. Values are the JSON values, unless `parse` asks for a column parsed by its
 * contract type (ColumnBatch.parsed).
 */
export function openJsonLinesFile(source: ByteSource, options: JsonLinesOptions = {}): TableFile {
  const batchRows = Math.max(1, options.batchRows ?? DEFAULT_BATCH_ROWS);
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  return {
    schema: async () => ({ kind: 'dynamic' }),
    batches: (columns, batchOptions = {}) => {
      const names = [...new Set(columns)];
      const readers = names.map((name) => readerFor(name, batchOptions, batchRows));
      const range = batchOptions.textRange;
      const builder = new JsonLinesBatchBuilder(names, readers, batchRows, maxLineBytes, range?.firstRow ?? 0);
      if (range === undefined) return readBatches(new ChunkWindow(textChunks(source, chunkBytes)), maxLineBytes, builder);
      // A range (jsonl-ranges.ts) other than the first starts at a line of a plain file.
      const part = sourceRange(source, range.start, range.end);
      const chunks = range.start === 0 ? textChunks(part, chunkBytes) : plainChunks(part, chunkBytes);
      return readBatches(new ChunkWindow(chunks), maxLineBytes, builder, range.start === 0 ? undefined : range.firstLine);
    },
    readRows: (columns, rows, options = {}) => {
      const names = [...new Set(columns)];
      const builderFor = (row: number) => new JsonLinesBatchBuilder(names, names.map((name) => readerFor(name, options, 1)), 1, maxLineBytes, row);
      return readBatches(new ChunkWindow(textChunks(source, chunkBytes)), maxLineBytes, new JsonRowPicker(rows, builderFor));
    },
  };
}

function readerFor(name: string, { parse }: BatchOptions, batchRows: number): JsonFieldReader {
  const type = parse?.get(name);
  return type ? parsedReader(type, batchRows, 'dynamic') : new JsonValues(batchRows);
}

/** What takes a file's lines: a batch builder, or one that picks some rows. */
interface LineTarget extends LineSink {
  takeReady(): ColumnBatch[];
  flush?(): void;
  /** Nothing after this line is wanted: reading stops. */
  readonly done?: boolean;
}

async function* readBatches(window: ChunkWindow, maxLineBytes: number, target: LineTarget, firstLine?: number): AsyncGenerator<ColumnBatch> {
  const scanner = new LineScanner(window, maxLineBytes);
  try {
    if (firstLine === undefined) await scanner.begin();
    else scanner.beginAt(firstLine);
    do {
      scanner.scan(target);
      yield* target.takeReady();
    } while (!target.done && (await scanner.refill()));
    if (!target.done) scanner.finish(target);
  } finally {
    await window.close();
  }
  target.flush?.();
  yield* target.takeReady();
}
