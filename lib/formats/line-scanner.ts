import { isAscii, isUtf8 } from 'node:buffer';

/** Text readers pull the source in pieces of this size, so a file is never read whole. */
export const DEFAULT_CHUNK_BYTES = 1 << 20;
export const DEFAULT_BATCH_ROWS = 65536;
/** The longest record (CSV) or line (JSON Lines) kept; a longer one is unreadable. */
export const DEFAULT_MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** What the text readers (CSV, JSON Lines) share. */
export interface TextReadOptions {
  /** Rows per yielded batch (default 65536). */
  readonly batchRows?: number;
  /** Bytes per read from the source (default 1 MiB); small values exist for tests. */
  readonly chunkBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * A sliding window over a file's text, arriving in chunks (see text-chunks.ts). Each refill
 * drops what the caller has finished with and appends the next chunk, so a record that
 * straddles chunks ends up contiguous without being re-read or re-scanned. The backing store is
 * reused and only grows to fit the longest record kept, which the caller bounds.
 */
export class ChunkWindow {
  /**
   * The buffered bytes. Indexes into it, and views of it, are valid until the next refill. A
   * Buffer, so fields become strings with its native decoders, without a view per field.
   */
  bytes: Buffer = Buffer.alloc(0);
  /** Bytes of the text dropped from the front so far: an index into `bytes` plus this is an offset into the text. */
  dropped = 0;
  private store: Buffer = Buffer.alloc(0);

  constructor(private readonly chunks: AsyncIterator<Uint8Array>) {}

  /**
   * Keeps bytes from `keepFrom` on and appends the next chunk. Returns how far the kept bytes
   * moved towards the start (subtract it from held indexes), or -1 at the end of the text.
   */
  async refill(keepFrom: number): Promise<number> {
    let next = await this.chunks.next();
    while (!next.done && next.value.byteLength === 0) next = await this.chunks.next();
    if (next.done) return -1;
    const piece = next.value;
    const kept = this.keep(keepFrom, piece.byteLength);
    this.store.set(piece, kept);
    this.bytes = this.store.subarray(0, kept + piece.byteLength);
    this.dropped += keepFrom;
    return keepFrom;
  }

  /** Stops reading early (a CSV header is all that was wanted): an inflater is released now. */
  async close(): Promise<void> {
    await this.chunks.return?.();
  }

  /** Moves the kept tail to the front of a store with room for `extra` more bytes. */
  private keep(keepFrom: number, extra: number): number {
    const kept = this.bytes.length - keepFrom;
    if (kept + extra > this.store.length) {
      // Doubling keeps a long record's many refills linear instead of quadratic in copying.
      const bigger = Buffer.allocUnsafe(Math.max(kept + extra, this.store.length * 2));
      bigger.set(this.bytes.subarray(keepFrom));
      this.store = bigger;
    } else if (kept > 0 && keepFrom > 0) {
      this.store.copyWithin(0, keepFrom, keepFrom + kept);
    }
    return kept;
  }
}

/** Fills enough of the window to see a UTF-8 byte order mark; returns where content starts. */
export async function contentStart(window: ChunkWindow): Promise<number> {
  while (window.bytes.length < 3 && (await window.refill(0)) >= 0) {
    // A tiny chunk size may need several reads to hold three bytes.
  }
  const b = window.bytes;
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
}

/**
 * What is known of a window's text, checked natively a window at a time: bytes [from, asciiEnd)
 * are ASCII, [from, utf8End) valid UTF-8, where `from` is the start of the line or record being
 * read. Lines split at newlines, which are ASCII, so each line in a checked region is valid too.
 */
export class TextCheck {
  asciiEnd = 0;
  utf8End = 0;

  /** Checks the window from `from` on: all ASCII (the usual case), or else valid UTF-8 up to `newlineEnd`. */
  check(b: Buffer, from: number, newlineEnd: number): void {
    const asciiFrom = Math.max(this.asciiEnd, from);
    this.asciiEnd = isAscii(b.subarray(asciiFrom)) ? b.length : asciiFrom;
    const utf8From = Math.max(this.utf8End, from);
    if (this.asciiEnd === b.length) this.utf8End = b.length;
    else this.utf8End = utf8From < newlineEnd && isUtf8(b.subarray(utf8From, newlineEnd)) ? newlineEnd : utf8From;
  }

  /** The window dropped `shift` bytes from its front. */
  shift(shift: number): void {
    this.asciiEnd = Math.max(0, this.asciiEnd - shift);
    this.utf8End = Math.max(0, this.utf8End - shift);
  }

  /** What is known of bytes from `from` up to `end`: ASCII, UTF8 or UNCHECKED. */
  of(end: number): TextKind {
    return end <= this.asciiEnd ? ASCII : end <= this.utf8End ? UTF8 : UNCHECKED;
  }
}

export const UNCHECKED = 0;
export const UTF8 = 1;
export const ASCII = 2;
export type TextKind = typeof UNCHECKED | typeof UTF8 | typeof ASCII;

/** Receives lines as the scanner finds them: bytes [start, end) of `b`, valid only during the call. */
export interface LineSink {
  line(lineNumber: number, b: Buffer, start: number, end: number, text: TextKind): void;
  tooLong(lineNumber: number): void;
}

/**
 * Splits a file's text into lines (LF, with a trailing CR dropped) chunk by chunk. A line longer
 * than the limit is reported and skipped without being buffered, so one enormous line cannot
 * exhaust memory.
 */
export class LineScanner {
  private lineNumber = 1;
  private start = 0;
  /** Bytes before this hold no newline: a long line's earlier chunks are searched once. */
  private searched = 0;
  private skipping = false;
  private readonly text = new TextCheck();

  constructor(
    private readonly window: ChunkWindow,
    private readonly maxLineBytes: number,
  ) {}

  async begin(): Promise<void> {
    this.start = await contentStart(this.window);
  }

  /** Starts at a line inside a file (a byte range): no byte order mark there, lines numbered from `line`. */
  beginAt(line: number): void {
    this.lineNumber = line;
  }

  /** Hands every complete line in the window to the sink. */
  scan(sink: LineSink): void {
    const b = this.window.bytes;
    if (!this.skipping) this.text.check(b, this.start, b.lastIndexOf(LF) + 1);
    let newline = b.indexOf(LF, Math.max(this.start, this.searched));
    while (newline !== -1) {
      this.emit(b, newline, sink);
      this.start = newline + 1;
      this.lineNumber++;
      newline = b.indexOf(LF, this.start);
    }
    this.searched = b.length;
  }

  /** Reads the next chunk; false at the end of the source. */
  async refill(): Promise<boolean> {
    const length = this.window.bytes.length;
    if (!this.skipping && length - this.start > this.maxLineBytes) this.skipping = true;
    const shift = await this.window.refill(this.skipping ? length : this.start);
    if (shift < 0) return false;
    this.text.shift(shift);
    this.start = this.skipping ? 0 : this.start - shift;
    this.searched = this.skipping ? 0 : this.searched - shift;
    return true;
  }

  /** Hands over a last line that has no newline after it. */
  finish(sink: LineSink): void {
    const length = this.window.bytes.length;
    if (this.skipping || this.start < length) this.emit(this.window.bytes, length, sink);
  }

  private emit(b: Buffer, newline: number, sink: LineSink): void {
    if (this.skipping) {
      this.skipping = false;
      sink.tooLong(this.lineNumber);
      return;
    }
    const end = newline > this.start && b[newline - 1] === CR ? newline - 1 : newline;
    if (end - this.start > this.maxLineBytes) sink.tooLong(this.lineNumber);
    else sink.line(this.lineNumber, b, this.start, end, this.text.of(end));
  }
}
