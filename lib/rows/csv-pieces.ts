import { EMPTY_FILE, headerNames } from '../formats/csv-header.js';
import type { CsvRecord } from '../formats/csv-record.js';
import { SkippingScanner } from '../formats/csv-skipping-scanner.js';
import type { ChunkWindow } from '../formats/line-scanner.js';
import { UnreadableError } from '../formats/table-file.js';
import { TextCutter, type RowSpan, type TextPiece, type TextWalkOptions } from './text-pieces.js';
import { rowsPastEnd } from './withheld-rows.js';

/**
 * A CSV file's text cut at the given rows (ascending), numbered as CsvBatchBuilder numbers them:
 * the first record is the header, a blank line is a row only in a one-column file, a record
 * that cannot be read (ragged, bad quotes, too long) is a row. Lines between withheld rows are
 * passed over by newline where no quote lies ahead (SkippingScanner), so only the records
 * around a withheld row are split into fields.
 */
export async function* csvPieces(window: ChunkWindow, rows: readonly number[], options: TextWalkOptions): AsyncGenerator<TextPiece> {
  const scanner = new SkippingScanner(window, options.maxRecordBytes);
  const cutter = new TextCutter(window, options);
  const found = new CsvRows(scanner, rows);
  const sink = (record: CsvRecord) => found.take(record);
  try {
    if (rows.length === 0 && options.keepRest) return yield* cutter.rest();
    await scanner.begin();
    let more = true;
    while (more && !found.done) {
      found.skip();
      scanner.scan(sink);
      if (found.header !== undefined) yield* cutter.header(found.takeHeader(), scanner.textOffset);
      else if (found.start) yield* cutter.withheld(found.span(scanner.textOffset));
      else if (!scanner.paused) {
        yield* cutter.keptUpTo(scanner.textOffset, scanner.line);
        more = await scanner.refill();
      }
    }
    if (!more) {
      scanner.finish(sink);
      const end = window.dropped + window.bytes.length;
      if (found.header !== undefined) yield* cutter.header(found.takeHeader(), end);
      if (found.start) yield* cutter.withheld(found.span(end));
    }
    if (found.columns === 0) throw new UnreadableError(EMPTY_FILE);
    if (found.next < rows.length) throw rowsPastEnd(options.path, rows, found.next, found.row);
    if (options.keepRest) yield* cutter.rest();
  } finally {
    await window.close();
  }
}

/** Counts records into rows as the scanner hands them over, and notes the header and the withheld rows. */
class CsvRows {
  columns = 0;
  row = 0;
  next = 0;
  /** Where the header record starts, until it is handed out. */
  header: number | undefined;
  /** The withheld row the scanner stopped after, until it is handed out. */
  start: { row: number; line: number; start: number } | undefined;

  constructor(private readonly scanner: SkippingScanner, private readonly rows: readonly number[]) {}

  /** All withheld rows are found (and the header, which is wanted even when no row is). */
  get done(): boolean {
    return this.columns > 0 && this.next >= this.rows.length;
  }

  take(record: CsvRecord): void {
    this.scanner.pause();
    if (this.columns === 0) {
      this.columns = headerNames(record).length;
      this.scanner.fieldCap = this.columns;
      this.header = this.scanner.textOffset;
    } else if (!record.blank || this.columns === 1) {
      if (this.row++ === this.rows[this.next]) this.start = { row: this.row - 1, line: record.line, start: this.scanner.textOffset };
    }
  }

  /** Passes over whole lines up to the next withheld row where the scanner can. */
  skip(): void {
    if (this.columns > 0) this.row += this.scanner.skipLines(this.rows[this.next]! - this.row, this.columns === 1);
  }

  takeHeader(): number {
    const start = this.header!;
    this.header = undefined;
    return start;
  }

  span(end: number): RowSpan {
    const found = { ...this.start!, end };
    this.start = undefined;
    this.next++;
    return found;
  }
}
