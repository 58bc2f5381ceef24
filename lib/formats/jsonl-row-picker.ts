import { isBlank } from './json-line-object.js';
import type { JsonLinesBatchBuilder } from './jsonl-batch-builder.js';
import type { LineSink, TextKind } from './line-scanner.js';
import type { ColumnBatch } from './table-file.js';

/**
 * Hands only the given rows' lines to a batch builder of one row each, numbered as every row is
 * (a blank line is no row): re-reading a few keys (those whose hashes repeated) parses only
 * their lines. Says when the last was passed, for reading to stop there.
 */
export class JsonRowPicker implements LineSink {
  private readonly wanted: number[];
  private readonly ready: ColumnBatch[] = [];
  private row = 0;
  private next = 0;

  constructor(rows: readonly number[], private readonly builderFor: (row: number) => JsonLinesBatchBuilder) {
    this.wanted = [...new Set(rows)].filter((row) => row >= 0).sort((a, b) => a - b);
  }

  get done(): boolean {
    return this.next >= this.wanted.length;
  }

  line(lineNumber: number, b: Buffer, start: number, end: number, text: TextKind): void {
    if (isBlank(b, start, end)) return;
    if (this.take()) this.pick((builder) => builder.line(lineNumber, b, start, end, text));
  }

  tooLong(lineNumber: number): void {
    if (this.take()) this.pick((builder) => builder.tooLong(lineNumber));
  }

  takeReady(): ColumnBatch[] {
    return this.ready.splice(0);
  }

  /** Counts a row; whether it is one asked for. */
  private take(): boolean {
    if (this.row++ !== this.wanted[this.next]) return false;
    this.next++;
    return true;
  }

  private pick(feed: (builder: JsonLinesBatchBuilder) => void): void {
    const builder = this.builderFor(this.row - 1);
    feed(builder);
    builder.flush();
    this.ready.push(...builder.takeReady());
  }
}
