import { DEFAULT_BYTE_DIALECT, type ByteDialect } from './csv-byte-dialect.js';
import { IS_QUOTED, HAS_ESCAPES, RecordFields, tooLong, type RecordSink } from './csv-record.js';
import { type ChunkWindow, contentStart } from './line-scanner.js';

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
/** After the escape character inside quotes, or in an unquoted field (ByteDialect.unquotedEscape). */
const QUOTED_ESCAPE = 5;
const UNQUOTED_ESCAPE = 6;

/**
 * An RFC 4180 state machine over raw bytes, in the contract's dialect (delimiter, quote, escape), finding records and their fields (see csv-record.ts)
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
  /** Where the next escape inside quotes lies in the window (b.length: none), searched once per window. */
  private escapeAt = -1;
  /** Takes whole plain records straight from the bytes (CsvBatchBuilder.addUnquoted), if set. */
  plainRecords: PlainRecords | undefined;

  constructor(
    protected readonly window: ChunkWindow,
    private readonly maxRecordBytes: number,
    dialect: ByteDialect = DEFAULT_BYTE_DIALECT,
  ) {
    super(window.bytes, dialect);
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
    this.escapeAt = -1;
    const quote = this.dialect.quote;
    while (p < end && !this.halted) {
      const state = this.state;
      if (state === FIELD_START && this.fieldCount === 0 && this.plainRecords !== undefined) {
        p = this.plain(b, p, newlineEnd);
        if (p === end) break;
      }
      if (state === FIELD_START) p = b[p] === quote ? this.openQuote(p) : this.unquoted(b, p, p, end, sink);
      else if (state === UNQUOTED) p = this.unquoted(b, this.recordStart + this.fieldBegin, p, end, sink);
      else if (state === QUOTED) p = this.quoted(b, p, end);
      else if (state === QUOTE_SEEN) p = this.afterQuote(b, p, sink);
      else if (state === QUOTED_ESCAPE) p = this.afterQuotedEscape(b, p);
      else if (state === UNQUOTED_ESCAPE) p = this.afterUnquotedEscape(b, p);
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
    else if (this.state === QUOTED || this.state === QUOTED_ESCAPE) {
      this.problem = `unterminated quoted field: the quote opened in field ${this.fieldCount + 1} on line ${this.quoteLine} is never closed${QUOTE_KEYS}`;
    } else if (this.state === UNQUOTED_ESCAPE) this.problem = `the file ends in the escape character, with nothing after it to escape`;
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
    if (this.state !== UNQUOTED) this.fieldFlags = 0;
    const { delimiter, quote, unquotedEscape, stopMax } = this.dialect;
    for (;;) {
      let c = 0;
      while (p < end) {
        c = b[p]!;
        // One compare for most bytes: a comma and a newline sort below the digits and letters fields hold.
        if (c <= stopMax && (c === delimiter || c === LF || c === unquotedEscape)) break;
        p++;
      }
      if (p === end) return this.suspendField(begin, p);
      if (c === unquotedEscape) {
        this.fieldFlags |= HAS_ESCAPES;
        if (p + 1 === end) return this.suspendField(begin, p + 1, UNQUOTED_ESCAPE);
        if (b[p + 1] === LF) this.scanLine++;
        p += 2;
        continue;
      }
      if (c === delimiter) this.endField(begin, p, this.fieldFlags);
      else {
        this.endField(begin, this.unquotedEnd(b, begin, p), this.fieldFlags);
        this.endRecord(p, sink);
      }
      this.fieldFlags = 0;
      p++;
      this.state = FIELD_START;
      // After a record, back to scan: the next may be one plainRecords takes whole.
      if (p === end || this.halted || b[p] === quote || (c === LF && this.plainRecords !== undefined)) return p;
      begin = p;
    }
  }

  /** The chunk ended inside an unquoted field: it resumes there after the refill. */
  private suspendField(begin: number, p: number, state = UNQUOTED): number {
    this.fieldBegin = begin - this.recordStart;
    this.state = state;
    return p;
  }

  /** The byte after an escape in an unquoted field, at the start of a chunk: taken as it is. */
  private afterUnquotedEscape(b: Buffer, p: number): number {
    if (b[p] === LF) this.scanLine++;
    this.state = UNQUOTED;
    return p + 1;
  }

  /** Where an unquoted field ending at `p` stops, leaving out the CR of a CRLF. */
  private unquotedEnd(b: Buffer, begin: number, p: number): number {
    return p > begin && b[p - 1] === CR ? p - 1 : p;
  }

  private quoted(b: Buffer, p: number, end: number): number {
    // indexOf finds the closing quote natively; newlines before it only count lines.
    const close = b.indexOf(this.dialect.quote, p);
    const escape = this.nextEscape(b, p);
    const escaped = escape < (close === -1 ? end : close);
    const stop = escaped ? escape : close === -1 ? end : close;
    for (let at = b.indexOf(LF, p); at !== -1 && at < stop; at = b.indexOf(LF, at + 1)) this.scanLine++;
    if (escaped) {
      this.fieldFlags |= HAS_ESCAPES;
      this.state = QUOTED_ESCAPE;
      return escape + 1;
    }
    if (close === -1) return end;
    this.state = QUOTE_SEEN;
    return close + 1;
  }

  /** The next escape inside quotes at or after `p`, or the window's length; searched again only past the last one found. */
  private nextEscape(b: Buffer, p: number): number {
    const escape = this.dialect.escape;
    if (escape < 0) return b.length;
    if (this.escapeAt < p) {
      const at = b.indexOf(escape, p);
      this.escapeAt = at === -1 ? b.length : at;
    }
    return this.escapeAt;
  }

  /**
   * The byte after an escape inside quotes: a quote or the escape itself, as DuckDB's ESCAPE and
   * Python's escapechar write them. Anything else means the file escapes some other way (a
   * backslash that is only a backslash), so the record is refused rather than read without it.
   */
  private afterQuotedEscape(b: Buffer, p: number): number {
    const c = b[p]!;
    const { quote, escape, unquotedEscape } = this.dialect;
    if (c === LF) this.scanLine++;
    if (c !== quote && c !== escape && unquotedEscape < 0) {
      this.problem ??= `in quoted field ${this.fieldCount + 1} the escape ${JSON.stringify(String.fromCharCode(escape))} is followed by ${JSON.stringify(String.fromCharCode(c))}, not by a quote or another escape: if the file escapes quotes by doubling them, remove produces.csv.escape`;
    }
    this.state = QUOTED;
    return p + 1;
  }

  private afterQuote(b: Buffer, p: number, sink: RecordSink): number {
    const c = b[p];
    const delimiter = this.dialect.delimiter;
    if (c === this.dialect.quote) {
      this.fieldFlags |= HAS_ESCAPES;
      this.state = QUOTED;
      return p + 1;
    }
    if (c !== delimiter && c !== LF && c !== CR) return this.junkAfterQuote(p, this.fieldCount + 1, b[p - 2] === BACKSLASH);
    this.endField(this.recordStart + this.fieldBegin, p - 1, this.fieldFlags);
    if (c === LF) return this.endRecord(p, sink);
    this.state = c === delimiter ? FIELD_START : CLOSED_THEN_CR;
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
    const backslash = backslashBefore && this.dialect.escape !== BACKSLASH;
    const hint = backslash ? ` (a quote escaped as \\"? set produces.csv.escape: '\\' as the file is written, e.g. by DuckDB's ESCAPE '\\')` : QUOTE_KEYS;
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

/** Where a record that does not scan as the dialect says points the reader. */
const QUOTE_KEYS = ' (check produces.csv.quote and produces.csv.escape against how the file is written)';
