import { CR, CsvScanner, FIELD_START, LF } from './csv-scanner.js';

/** A scanner that can also pass over whole lines unsplit: for readers that want few records. */
export class SkippingScanner extends CsvScanner {
  /** Between records: the next byte starts a record (or the text ends). */
  get atRecordStart(): boolean {
    return this.state === FIELD_START && this.fieldCount === 0;
  }

  /** Whether the last scan stopped at a pause rather than at the end of the window. */
  get paused(): boolean {
    return this.halted && !this.stopped;
  }

  /** Where the next record starts, as an offset into the whole text. */
  get textOffset(): number {
    return this.window.dropped + this.recordStart;
  }

  /**
   * Passes over whole lines without locating their fields, up to `rows` that are rows (a blank
   * line is one only when `blankIsRow`), from a record's start while no quote lies ahead in the
   * window (nor an escape, where unquoted fields have one: it may escape a newline): there no
   * newline can be inside a field, so lines are records. Stops before a line
   * that starts at or past window index `stopAt`. Returns the rows passed.
   */
  skipLines(rows: number, blankIsRow: boolean, stopAt = Number.POSITIVE_INFINITY): number {
    if (!this.atRecordStart || this.stopped) return 0;
    const b = (this.bytes = this.window.bytes);
    const quote = b.indexOf(this.dialect.quote, this.pos);
    const escape = this.dialect.unquotedEscape < 0 ? -1 : b.indexOf(this.dialect.unquotedEscape, this.pos);
    const limit = Math.min(quote === -1 ? b.length : quote, escape === -1 ? b.length : escape);
    let p = this.pos;
    let passed = 0;
    while (passed < rows && p < stopAt) {
      const newline = b.indexOf(LF, p);
      if (newline === -1 || newline >= limit) break;
      if (blankIsRow || !(newline === p || (newline === p + 1 && b[p] === CR))) passed++;
      this.scanLine++;
      p = newline + 1;
    }
    this.line = this.scanLine;
    this.pos = this.recordStart = p;
    return passed;
  }
}
