import { isAscii, isUtf8 } from 'node:buffer';
import { type ChunkWindow, contentStart } from './line-scanner.js';

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LF = 0x0a;
const CR = 0x0d;

// Scanner states, kept between chunks so a record split across reads resumes where it stopped.
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_SEEN = 3;
const CLOSED_THEN_CR = 4;

/** Field flags: the field was quoted; it holds doubled quotes to undo. */
export const IS_QUOTED = 1;
export const HAS_ESCAPES = 2;

/**
 * One record as the scanner hands it over; valid only during the sink call. Field `k` is bytes
 * [recordStart + starts[k], recordStart + ends[k]) of `bytes`, quotes and CR of CRLF left out.
 */
export interface CsvRecord {
  readonly line: number;
  readonly fieldCount: number;
  readonly problem: string | undefined;
  /** A line with nothing on it: not a record at all. */
  readonly blank: boolean;
  readonly bytes: Buffer;
  readonly recordStart: number;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly flags: Int32Array;
  /** Every byte of the record is ASCII, so a field's bytes are its UTF-16 units. */
  readonly ascii: boolean;
  field(index: number): string | null;
}

export type RecordSink = (record: CsvRecord) => void;

/**
 * An RFC 4180 state machine over raw bytes. It records field offsets rather than building
 * strings; runs of unquoted fields are split in one tight loop. UTF-8 is validated natively, a
 * window at a time where it is all ASCII (the usual case) and a record at a time where not.
 */
export class CsvScanner implements CsvRecord {
  line = 1;
  fieldCount = 0;
  problem: string | undefined;
  /** Fields past this many are counted but not located: the record is ragged anyway. */
  fieldCap = Number.POSITIVE_INFINITY;
  bytes: Buffer;
  recordStart = 0;
  starts = new Int32Array(16);
  ends = new Int32Array(16);
  flags = new Int32Array(16);
  ascii = true;
  private stopped = false;
  private scanLine = 1;
  private pos = 0;
  private state = FIELD_START;
  private skipping = false;
  private quoteLine = 0;
  private fieldBegin = 0;
  private fieldFlags = 0;
  /** Bytes [recordStart, asciiEnd) of the window are known to be ASCII. */
  private asciiEnd = 0;

  constructor(
    private readonly window: ChunkWindow,
    private readonly maxRecordBytes: number,
  ) {
    this.bytes = window.bytes;
  }

  get blank(): boolean {
    return this.fieldCount === 1 && this.problem === undefined && this.flags[0] === 0 && this.starts[0] === this.ends[0];
  }

  async begin(): Promise<void> {
    this.pos = this.recordStart = await contentStart(this.window);
  }

  stop(): void {
    this.stopped = true;
  }

  /** Hands every complete record in the window to the sink. */
  scan(sink: RecordSink): void {
    const b = (this.bytes = this.window.bytes);
    const end = b.length;
    const from = Math.max(this.asciiEnd, this.recordStart);
    this.asciiEnd = isAscii(b.subarray(from, end)) ? end : from;
    let p = this.pos;
    while (p < end && !this.stopped) {
      const state = this.state;
      if (state === FIELD_START) p = b[p] === QUOTE ? this.openQuote(p) : this.unquoted(b, p, p, end, sink);
      else if (state === UNQUOTED) p = this.unquoted(b, this.recordStart + this.fieldBegin, p, end, sink);
      else if (state === QUOTED) p = this.quoted(b, p, end);
      else if (state === QUOTE_SEEN) p = this.afterQuote(b, p, sink);
      else p = this.afterClosedCr(b, p, sink);
    }
    this.pos = p;
  }

  /** Reads the next chunk; false at the end of the source. */
  async refill(): Promise<boolean> {
    const length = this.window.bytes.length;
    if (!this.skipping && length - this.recordStart > this.maxRecordBytes) {
      this.skipping = true;
      this.problem ??= this.tooLong();
    }
    // While skipping, nothing of the record is kept: only the scanner state carries over.
    const shift = await this.window.refill(this.skipping ? length : this.recordStart);
    if (shift < 0) return false;
    this.pos -= shift;
    this.recordStart -= shift;
    this.asciiEnd = Math.max(0, this.asciiEnd - shift);
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

  field(index: number): string | null {
    const start = this.starts[index]!;
    const end = this.ends[index]!;
    const flags = this.flags[index]!;
    if (flags === 0 && start === end) return null;
    const base = this.recordStart;
    const value = this.bytes.toString(this.ascii ? 'latin1' : 'utf8', base + start, base + end);
    return flags & HAS_ESCAPES ? value.replaceAll('""', '"') : value;
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
        if (c === COMMA || c === LF) break;
        p++;
      }
      if (p === end) return this.pause(begin, p);
      if (c === COMMA) this.endField(begin, p, 0);
      else {
        this.endField(begin, this.unquotedEnd(b, begin, p), 0);
        this.endRecord(p, sink);
      }
      p++;
      this.state = FIELD_START;
      if (p === end || this.stopped || b[p] === QUOTE) return p;
      begin = p;
    }
  }

  /** The chunk ended inside an unquoted field: it resumes there after the refill. */
  private pause(begin: number, p: number): number {
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

  private endField(begin: number, end: number, flags: number): void {
    const k = this.fieldCount++;
    if (this.skipping || k >= this.fieldCap) return;
    if (k === this.starts.length) this.grow();
    this.starts[k] = begin - this.recordStart;
    this.ends[k] = end - this.recordStart;
    this.flags[k] = flags;
  }

  private grow(): void {
    const grown = (old: Int32Array) => {
      const bigger = new Int32Array(old.length * 2);
      bigger.set(old);
      return bigger;
    };
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
    this.flags = grown(this.flags);
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
    if (!this.skipping && end - this.recordStart > this.maxRecordBytes) this.problem ??= this.tooLong();
    if (this.problem === undefined) this.validate(end);
    sink(this);
  }

  /** Checks the record is UTF-8, unless the window's check already proved it ASCII. */
  private validate(end: number): void {
    if (end <= this.asciiEnd) {
      this.ascii = true;
      return;
    }
    const bytes = this.bytes.subarray(this.recordStart, end);
    this.ascii = isAscii(bytes);
    if (!this.ascii && !isUtf8(bytes)) this.problem = `invalid UTF-8 in field ${this.badUtf8Field()}`;
  }

  private badUtf8Field(): number {
    const stored = Math.min(this.fieldCount, this.fieldCap);
    for (let k = 0; k < stored; k++) {
      if (!isUtf8(this.bytes.subarray(this.recordStart + this.starts[k]!, this.recordStart + this.ends[k]!))) return k + 1;
    }
    return 1;
  }

  private tooLong(): string {
    return `record is longer than the ${this.maxRecordBytes}-byte limit (maxRecordBytes)`;
  }
}
