import { IS_QUOTED, HAS_ESCAPES, RecordFields, tooLong, type RecordSink } from './csv-record.js';
import { type ChunkWindow, contentStart } from './line-scanner.js';

const COMMA = 0x2c;
export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const LF = 0x0a;
export const CR = 0x0d;

/** What takes whole plain records, unsplit by the scanner (CsvBatchBuilder.addUnquoted). */
export interface PlainRecords {
  addUnquoted(b: Buffer, p: number, limit: number, ascii: boolean): number;
}

// Scanner states, kept between chunks so a record split across reads resumes where it stopped.
export const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_SEEN = 3;
const CLOSED_THEN_CR = 4;

/**
 * An RFC 4180 state machine over raw bytes, finding records and their fields (see csv-record.ts)
 * chunk by chunk. Plain records (no quote, the header's field count, valid UTF-8: nearly every
 * record of most files) go whole to `plainRecords` when set, split and parsed in one pass; the
 * state machine takes the rest, and records that straddle chunks.
 */
export class CsvScanner extends RecordFields {
  /** Set by stop(): nothing more is wanted. */
  protected stopped = false;
  /** Set by stop() and pause(): scan returns after the record it is in. */
  protected halted = false;
  protected scanLine = 1;
  protected pos = 0;
  protected state = FIELD_START;
  private quoteLine = 0;
  private fieldBegin = 0;
  private fieldFlags = 0;
  /** Takes whole plain records straight from the bytes (CsvBatchBuilder.addUnquoted), if set. */
  plainRecords: PlainRecords | undefined;

  constructor(
    protected readonly window: ChunkWindow,
    private readonly maxRecordBytes: number,
  ) {
    super(window.bytes);
  }

  async begin(): Promise<void> {
    this.pos = this.recordStart = await contentStart(this.window);
  }

  /**
   * Starts at a record boundary inside a file instead of at its start (a byte range, see
   * csv-ranges.ts): no byte order mark to look for, and lines numbered from `line`.
   */
  beginAt(line: number): void {
    this.line = this.scanLine = line;
  }

  stop(): void {
    this.stopped = this.halted = true;
  }

  /** Makes scan return after the current record; the next scan goes on from there. */
  pause(): void {
    this.halted = true;
  }

  /** Hands every complete record in the window to the sink, or those until a pause. */
  scan(sink: RecordSink): void {
    this.halted = this.stopped;
    const b = (this.bytes = this.window.bytes);
    const end = b.length;
    const newlineEnd = b.lastIndexOf(LF) + 1;
    this.text.check(b, this.recordStart, newlineEnd);
    let p = this.pos;
    while (p < end && !this.halted) {
      const state = this.state;
      if (state === FIELD_START && this.fieldCount === 0 && this.plainRecords !== undefined) {
        p = this.plain(b, p, newlineEnd);
        if (p === end) break;
      }
      if (state === FIELD_START) p = b[p] === QUOTE ? this.openQuote(p) : this.unquoted(b, p, p, end, sink);
      else if (state === UNQUOTED) p = this.unquoted(b, this.recordStart + this.fieldBegin, p, end, sink);
      else if (state === QUOTED) p = this.quoted(b, p, end);
      else if (state === QUOTE_SEEN) p = this.afterQuote(b, p, sink);
      else p = this.afterClosedCr(b, p, sink);
    }
    this.pos = p;
  }

  /** Records from `p` on taken whole by plainRecords, while it takes them; returns where it stopped. */
  private plain(b: Buffer, p: number, newlineEnd: number): number {
    const ascii = p < this.text.asciiEnd;
    const limit = Math.min(ascii ? this.text.asciiEnd : this.text.utf8End, newlineEnd);
    const records = this.plainRecords!;
    for (let next = records.addUnquoted(b, p, limit, ascii); next >= 0; next = records.addUnquoted(b, p, limit, ascii)) {
      this.scanLine++;
      p = next;
    }
    this.line = this.scanLine;
    this.recordStart = p;
    return p;
  }

  /** Reads the next chunk; false at the end of the source. */
  async refill(): Promise<boolean> {
    const length = this.window.bytes.length;
    if (!this.skipping && length - this.recordStart > this.maxRecordBytes) {
      this.skipping = true;
      this.problem ??= tooLong(this.maxRecordBytes);
    }
    // While skipping, nothing of the record is kept: only the scanner state carries over.
    const shift = await this.window.refill(this.skipping ? length : this.recordStart);
    if (shift < 0) return false;
    this.pos -= shift;
    this.recordStart -= shift;
    this.text.shift(shift);
    this.bytes = this.window.bytes;
    return true;
  }

  /** Completes a last record that has no newline after it. */
  finish(sink: RecordSink): void {
    if (this.stopped || (this.state === FIELD_START && this.fieldCount === 0)) return;
    const b = (this.bytes = this.window.bytes);
    const p = b.length;
    if (this.state === FIELD_START) this.endField(p, p, 0);
    else if (this.state === UNQUOTED) this.endField(this.recordStart + this.fieldBegin, this.unquotedEnd(b, this.recordStart + this.fieldBegin, p), this.fieldFlags);
    else if (this.state === QUOTE_SEEN) this.endField(this.recordStart + this.fieldBegin, p - 1, this.fieldFlags);
    else if (this.state === QUOTED) {
      this.problem = `unterminated quoted field: the quote opened in field ${this.fieldCount + 1} on line ${this.quoteLine} is never closed`;
    }
    this.complete(p, sink);
  }

  private openQuote(p: number): number {
    this.fieldBegin = p + 1 - this.recordStart;
    this.fieldFlags = IS_QUOTED;
    this.quoteLine = this.scanLine;
    this.state = QUOTED;
    return p + 1;
  }

  /**
   * Unquoted fields from `begin` on, as many as follow one another, records included: the
   * common case of a CSV without quotes runs here, one byte compare at a time. A quote inside
   * an unquoted field is taken literally, as most writers and readers do.
   */
  private unquoted(b: Buffer, begin: number, p: number, end: number, sink: RecordSink): number {
    for (;;) {
      let c = 0;
      while (p < end) {
        c = b[p]!;
        // One compare for most bytes: both delimiters sort below the digits and letters fields hold.
        if (c <= COMMA && (c === COMMA || c === LF)) break;
        p++;
      }
      if (p === end) return this.suspendField(begin, p);
      if (c === COMMA) this.endField(begin, p, 0);
      else {
        this.endField(begin, this.unquotedEnd(b, begin, p), 0);
        this.endRecord(p, sink);
      }
      p++;
      this.state = FIELD_START;
      // After a record, back to scan: the next may be one plainRecords takes whole.
      if (p === end || this.halted || b[p] === QUOTE || (c === LF && this.plainRecords !== undefined)) return p;
      begin = p;
    }
  }

  /** The chunk ended inside an unquoted field: it resumes there after the refill. */
  private suspendField(begin: number, p: number): number {
    if (this.state !== UNQUOTED) this.fieldFlags = 0;
    this.fieldBegin = begin - this.recordStart;
    this.state = UNQUOTED;
    return p;
  }

  /** Where an unquoted field ending at `p` stops, leaving out the CR of a CRLF. */
  private unquotedEnd(b: Buffer, begin: number, p: number): number {
    return p > begin && b[p - 1] === CR ? p - 1 : p;
  }

  private quoted(b: Buffer, p: number, end: number): number {
    // indexOf finds the closing quote natively; newlines before it only count lines.
    const close = b.indexOf(QUOTE, p);
    const stop = close === -1 ? end : close;
    for (let at = b.indexOf(LF, p); at !== -1 && at < stop; at = b.indexOf(LF, at + 1)) this.scanLine++;
    if (close === -1) return end;
    this.state = QUOTE_SEEN;
    return close + 1;
  }

  private afterQuote(b: Buffer, p: number, sink: RecordSink): number {
    const c = b[p];
    if (c === QUOTE) {
      this.fieldFlags |= HAS_ESCAPES;
      this.state = QUOTED;
      return p + 1;
    }
    if (c !== COMMA && c !== LF && c !== CR) return this.junkAfterQuote(p, this.fieldCount + 1, b[p - 2] === BACKSLASH);
    this.endField(this.recordStart + this.fieldBegin, p - 1, this.fieldFlags);
    if (c === LF) return this.endRecord(p, sink);
    this.state = c === COMMA ? FIELD_START : CLOSED_THEN_CR;
    return p + 1;
  }

  private afterClosedCr(b: Buffer, p: number, sink: RecordSink): number {
    if (b[p] === LF) return this.endRecord(p, sink);
    this.fieldBegin = p - this.recordStart;
    this.fieldFlags = 0;
    return this.junkAfterQuote(p, this.fieldCount, false);
  }

  /**
   * Text after a closing quote makes the record unreadable; scan on to find where it ends. A
   * backslash before the quote is a writer escaping quotes its own way (DuckDB's ESCAPE '\\'):
   * reading that as RFC 4180 would misread every field that ends in a backslash, so it is named.
   */
  private junkAfterQuote(p: number, field: number, backslashBefore: boolean): number {
    const hint = backslashBefore ? ` (a quote escaped as \\"? CSV here escapes a quote by doubling it, "", as RFC 4180 and DuckDB's default do)` : '';
    this.problem ??= `unexpected character after the closing quote of field ${field}${hint}`;
    this.state = UNQUOTED;
    return p;
  }

  private endRecord(newline: number, sink: RecordSink): number {
    this.complete(newline, sink);
    this.scanLine++;
    this.line = this.scanLine;
    this.recordStart = newline + 1;
    this.fieldCount = 0;
    this.problem = undefined;
    this.skipping = false;
    this.state = FIELD_START;
    return newline + 1;
  }

  private complete(end: number, sink: RecordSink): void {
    if (!this.skipping && end - this.recordStart > this.maxRecordBytes) this.problem ??= tooLong(this.maxRecordBytes);
    if (this.problem === undefined) this.validate(end);
    sink(this);
  }
}
