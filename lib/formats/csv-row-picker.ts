import { CsvBatchBuilder, type WantedColumn } from './csv-batch-builder.js';
import { EMPTY_FILE, headerNames, type CsvLayout } from './csv-header.js';
import type { RecordSink } from './csv-record.js';
import { SkippingScanner } from './csv-skipping-scanner.js';
import type { ChunkWindow } from './line-scanner.js';
import { type ColumnBatch, UnreadableError } from './table-file.js';

/**
 * Reads only the given rows of a CSV file, one batch each, numbered as every row is: a CSV has
 * no index to seek by, but re-reading a few rows (keys whose hashes repeated) needs no field of
 * the others located. Lines between them are passed over by newline where no quote is ahead
 * (see CsvScanner.skipLines), record by record elsewhere, and reading stops after the last.
 */
export async function* pickRows(window: ChunkWindow, layout: CsvLayout, rows: readonly number[], columnsFor: (header: string[]) => WantedColumn[]): AsyncGenerator<ColumnBatch> {
  const wanted = [...new Set(rows)].filter((row) => row >= 0).sort((a, b) => a - b);
  const scanner = new SkippingScanner(window, layout.maxRecordBytes, layout.dialect);
  const picked: ColumnBatch[] = [];
  let header: string[] | undefined;
  const useHeader = (names: string[]) => {
    header = names;
    scanner.fieldCap = names.length;
  };
  if (!layout.dialect.dialect.header) useHeader([...layout.columns]);
  let row = 0;
  let next = 0;
  const sink: RecordSink = (record) => {
    scanner.pause();
    if (header === undefined) return useHeader(headerNames(record, layout.columns));
    // Numbered as CsvBatchBuilder numbers rows: a blank line is a row only in a one-column file.
    if (record.blank && header.length > 1) return;
    if (row++ !== wanted[next]) return;
    next++;
    const builder = new CsvBatchBuilder(header.length, columnsFor(header), 1, row - 1, undefined, layout.dialect);
    builder.add(record);
    picked.push(...builder.takeReady());
  };
  try {
    await scanner.begin();
    do {
      while (next < wanted.length) {
        if (header !== undefined) row += scanner.skipLines(wanted[next]! - row, header.length === 1);
        scanner.scan(sink);
        yield* picked.splice(0);
        if (!scanner.paused) break;
      }
    } while (next < wanted.length && (await scanner.refill()));
    if (next < wanted.length) scanner.finish(sink);
  } finally {
    await window.close();
  }
  if (header === undefined) throw new UnreadableError(EMPTY_FILE);
  yield* picked.splice(0);
}
