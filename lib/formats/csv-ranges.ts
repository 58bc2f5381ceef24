import type { CsvDialect } from '../contract/csv-dialect.js';
import type { ByteSource } from './byte-source.js';
import { sourceCompression } from './compression-magic.js';
import { ByteDialect } from './csv-byte-dialect.js';
import { headerNames } from './csv-header.js';
import type { RecordSink } from './csv-record.js';
import { SkippingScanner } from './csv-skipping-scanner.js';
import { ChunkWindow, DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES } from './line-scanner.js';
import { rangedChunks } from './ranged-chunks.js';
import { UnreadableError, type TextRange } from './table-file.js';

export interface RangeOptions {
  readonly chunkBytes?: number;
  readonly maxRecordBytes?: number;
  /** The contract's dialect: its quote and escapes decide where records end; the default when absent. */
  readonly dialect?: CsvDialect;
  /** The contract's columns, a header-less file's columns. */
  readonly columns?: readonly string[];
}

/**
 * Cuts a plain CSV file into `parts` ranges of about equal bytes, each starting where a record
 * starts. Where a record starts depends on every quote before it (a newline inside quotes is
 * data), so this is one pass over the file, but a cheap one: lines are passed over by newline
 * where no quote is ahead, the state machine runs only across quotes (CsvScanner.skipLines).
 * A compressed file cannot be entered part way: it is one range, as is a file that cannot be
 * read (the checker of that range says why) and one in another encoding than UTF-8 (its bytes
 * are transcoded before they are scanned, so offsets in them are not the file's).
 */
export async function csvRanges(source: ByteSource, parts: number, options: RangeOptions = {}): Promise<TextRange[]> {
  const whole: TextRange[] = [{ start: 0, end: source.byteLength, firstRow: 0, firstLine: 1 }];
  const encoding = options.dialect?.encoding ?? 'utf-8';
  if (parts <= 1 || encoding !== 'utf-8' || (await sourceCompression(source)) !== undefined) return whole;
  const targets = Array.from({ length: parts - 1 }, (_, k) => Math.floor(((k + 1) * source.byteLength) / parts));
  try {
    const starts = await recordStarts(source, targets, options);
    const ranges = [{ start: 0, firstRow: 0, firstLine: 1 }, ...starts].filter((r, i, all) => i === 0 || r.start > all[i - 1]!.start);
    return ranges.map((range, i) => ({ ...range, end: ranges[i + 1]?.start ?? source.byteLength })).filter((r) => r.start < r.end || r.start === 0);
  } catch (error) {
    if (error instanceof UnreadableError) return whole;
    throw error;
  }
}

type Start = Omit<TextRange, 'end'>;

/** For each target offset, the first record that starts at or after it, and its row and line. */
async function recordStarts(source: ByteSource, targets: readonly number[], options: RangeOptions): Promise<Start[]> {
  const window = new ChunkWindow(rangedChunks(source, options.chunkBytes ?? DEFAULT_CHUNK_BYTES));
  const dialect = new ByteDialect(options.dialect);
  const scanner = new SkippingScanner(window, options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES, dialect);
  // A file without a header has the contract's columns from its first line on.
  let columns = dialect.dialect.header ? 0 : Math.max(1, options.columns?.length ?? 1);
  let row = 0;
  const sink: RecordSink = (record) => {
    scanner.pause();
    if (columns === 0) columns = headerNames(record, options.columns).length;
    // Numbered as CsvBatchBuilder numbers rows: a blank line is a row only in a one-column file.
    else if (!record.blank || columns === 1) row++;
  };
  const starts: Start[] = [];
  try {
    await scanner.begin();
    let more = true;
    for (const target of targets) {
      const reached = () => columns > 0 && scanner.atRecordStart && scanner.textOffset >= target;
      while (more && !reached()) {
        if (columns > 0) row += scanner.skipLines(Number.POSITIVE_INFINITY, columns === 1, target - window.dropped);
        if (reached()) break;
        scanner.scan(sink);
        if (!scanner.paused) more = await scanner.refill();
      }
      if (!more) break;
      starts.push({ start: scanner.textOffset, firstRow: row, firstLine: scanner.line });
    }
  } finally {
    await window.close();
  }
  return starts;
}
