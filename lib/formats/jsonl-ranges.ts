import type { ByteSource } from './byte-source.js';
import { sourceCompression } from './compression-magic.js';
import type { TextRange } from './table-file.js';
import { isBlank } from './json-line-object.js';
import { ChunkWindow, DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES, LineScanner, type LineSink } from './line-scanner.js';
import { rangedChunks } from './ranged-chunks.js';

/**
 * Cuts a plain JSON Lines file into `parts` ranges of about equal bytes, each starting where a
 * line starts, with the row and line it starts at (see csv-ranges.ts for what a range is for).
 * JSON strings hold no raw newline, so every newline ends a line: one pass of newline searches,
 * no line parsed. A compressed file is one range.
 */
export async function jsonlRanges(source: ByteSource, parts: number, options: { chunkBytes?: number; maxLineBytes?: number } = {}): Promise<TextRange[]> {
  const whole: TextRange[] = [{ start: 0, end: source.byteLength, firstRow: 0, firstLine: 1 }];
  if (parts <= 1 || (await sourceCompression(source)) !== undefined) return whole;
  const targets = Array.from({ length: parts - 1 }, (_, k) => Math.floor(((k + 1) * source.byteLength) / parts));
  const window = new ChunkWindow(rangedChunks(source, options.chunkBytes ?? DEFAULT_CHUNK_BYTES));
  const counter = new LineStarts(window, targets);
  const scanner = new LineScanner(window, options.maxLineBytes ?? DEFAULT_MAX_RECORD_BYTES);
  try {
    await scanner.begin();
    do scanner.scan(counter);
    while (!counter.done && (await scanner.refill()));
  } finally {
    await window.close();
  }
  const starts = [{ start: 0, firstRow: 0, firstLine: 1 }, ...counter.starts];
  return starts.map((range, i) => ({ ...range, end: starts[i + 1]?.start ?? source.byteLength }));
}

/** Counts rows (lines that are not blank) and notes the first line starting at or past each target. */
class LineStarts implements LineSink {
  readonly starts: Omit<TextRange, 'end'>[] = [];
  private rows = 0;

  constructor(private readonly window: ChunkWindow, private readonly targets: readonly number[]) {}

  get done(): boolean {
    return this.starts.length === this.targets.length;
  }

  line(lineNumber: number, b: Buffer, start: number, end: number): void {
    const offset = this.window.dropped + start;
    if (!this.done && offset >= this.targets[this.starts.length]! && offset > (this.starts.at(-1)?.start ?? 0)) {
      this.starts.push({ start: offset, firstRow: this.rows, firstLine: lineNumber });
    }
    if (!isBlank(b, start, end)) this.rows++;
  }

  tooLong(): void {
    this.rows++;
  }
}
