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

const IS_QUOTED = 1;
const HAS_ESCAPES = 2;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** One record as the scanner hands it over; valid only during the sink call. */
export interface CsvRecord {
  readonly line: number;
  readonly fieldCount: number;
  readonly problem: string | undefined;
  /** A line with nothing on it: not a record at all. */
  readonly blank: boolean;
  field(index: number): string | null;
}

export type RecordSink = (record: CsvRecord) => void;

/**
 * An RFC 4180 state machine over raw bytes. It records field offsets rather than building
 * strings, then decodes each record once with a fatal decoder, which both validates UTF-8 and,
 * for ASCII records, lets fields be cut from the record text by their byte offsets.
 */
export class CsvScanner implements CsvRecord {
  line = 1;
  fieldCount = 0;
  problem: string | undefined;
  /** Fields past this many are counted but not located: the record is ragged anyway. */
  fieldCap = Number.POSITIVE_INFINITY;
  private stopped = false;
  private scanLine = 1;
  private pos = 0;
  private recordStart = 0;
  private state = FIELD_START;
  private skipping = false;
  private quoteLine = 0;
  private fieldBegin = 0;
  private fieldFlags = 0;
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly flags: number[] = [];
  private text = '';
  private ascii = true;

  constructor(
    private readonly window: ChunkWindow,
    private readonly maxRecordBytes: number,
  ) {}

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
    const b = this.window.bytes;
    const end = b.length;
    let p = this.pos;
    while (p < end && !this.stopped) {
      if (this.state === UNQUOTED) p = this.unquoted(b, p, end, sink);
      else if (this.state === QUOTED) p = this.quoted(b, p, end);
      else if (this.state === FIELD_START) p = this.fieldStart(b, p);
      else if (this.state === QUOTE_SEEN) p = this.afterQuote(b, p, sink);
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
    return true;
  }

  /** Completes a last record that has no newline after it. */
  finish(sink: RecordSink): void {
    if (this.stopped || (this.state === FIELD_START && this.fieldCount === 0)) return;
    const p = this.window.bytes.length;
    if (this.state === FIELD_START) this.beginField(p, 0);
    if (this.state === FIELD_START || this.state === UNQUOTED) this.endField(this.unquotedEnd(this.window.bytes, p));
    else if (this.state === QUOTE_SEEN) this.endField(p - 1);
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
    const value = this.ascii ? this.text.slice(start, end) : strictUtf8.decode(this.window.bytes.subarray(base + start, base + end));
    return flags & HAS_ESCAPES ? value.replaceAll('""', '"') : value;
  }

  private fieldStart(b: Uint8Array, p: number): number {
    if (b[p] !== QUOTE) {
      this.beginField(p, 0);
      this.state = UNQUOTED;
      return p;
    }
    this.beginField(p + 1, IS_QUOTED);
    this.quoteLine = this.scanLine;
    this.state = QUOTED;
    return p + 1;
  }

  private unquoted(b: Uint8Array, p: number, end: number, sink: RecordSink): number {
    // A quote inside an unquoted field is taken literally, as most writers and readers do.
    let c = 0;
    while (p < end) {
      c = b[p]!;
      if (c === COMMA || c === LF) break;
      p++;
    }
    if (p === end) return p;
    if (c === COMMA) {
      this.endField(p);
      this.state = FIELD_START;
      return p + 1;
    }
    this.endField(this.unquotedEnd(b, p));
    return this.endRecord(p, sink);
  }

  /** Where an unquoted field ending at `p` stops, leaving out the CR of a CRLF. */
  private unquotedEnd(b: Uint8Array, p: number): number {
    return p - 1 - this.recordStart >= this.fieldBegin && b[p - 1] === CR ? p - 1 : p;
  }

  private quoted(b: Uint8Array, p: number, end: number): number {
    for (; p < end; p++) {
      const c = b[p];
      if (c === QUOTE) {
        this.state = QUOTE_SEEN;
        return p + 1;
      }
      if (c === LF) this.scanLine++;
    }
    return p;
  }

  private afterQuote(b: Uint8Array, p: number, sink: RecordSink): number {
    const c = b[p];
    if (c === QUOTE) {
      this.fieldFlags |= HAS_ESCAPES;
      this.state = QUOTED;
      return p + 1;
    }
    if (c !== COMMA && c !== LF && c !== CR) return this.junkAfterQuote(p, this.fieldCount + 1, b[p - 2] === BACKSLASH);
    this.endField(p - 1);
    if (c === LF) return this.endRecord(p, sink);
    this.state = c === COMMA ? FIELD_START : CLOSED_THEN_CR;
    return p + 1;
  }

  private afterClosedCr(b: Uint8Array, p: number, sink: RecordSink): number {
    if (b[p] === LF) return this.endRecord(p, sink);
    this.beginField(p, 0);
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

  private beginField(p: number, flags: number): void {
    this.fieldBegin = p - this.recordStart;
    this.fieldFlags = flags;
  }

  private endField(p: number): void {
    const k = this.fieldCount++;
    if (this.skipping || k >= this.fieldCap) return;
    this.starts[k] = this.fieldBegin;
    this.ends[k] = p - this.recordStart;
    this.flags[k] = this.fieldFlags;
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
    if (this.problem === undefined) this.decode(end);
    sink(this);
  }

  private decode(end: number): void {
    const bytes = this.window.bytes.subarray(this.recordStart, end);
    try {
      this.text = strictUtf8.decode(bytes);
      // Valid UTF-8 decodes to as many UTF-16 units as bytes only when every byte is ASCII.
      this.ascii = this.text.length === bytes.length;
    } catch {
      this.problem = `invalid UTF-8 in field ${this.badUtf8Field()}`;
    }
  }

  private badUtf8Field(): number {
    const stored = Math.min(this.fieldCount, this.fieldCap);
    for (let k = 0; k < stored; k++) {
      const bytes = this.window.bytes.subarray(this.recordStart + this.starts[k]!, this.recordStart + this.ends[k]!);
      if (!isValidUtf8(bytes)) return k + 1;
    }
    return 1;
  }

  private tooLong(): string {
    return `record is longer than the ${this.maxRecordBytes}-byte limit (maxRecordBytes)`;
  }
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
