import type { ChunkWindow } from '../formats/line-scanner.js';
import { unsupportedFile } from './row-errors.js';

/**
 * A file's text cut at its withheld rows: `kept` bytes go to the rewritten file as they are,
 * `withheld` ones are a row's record (CSV) or line (JSON Lines), its line ending included. Bytes
 * are a view of the reader's window, valid only until the next piece is asked for.
 */
export type TextPiece =
  | { readonly kind: 'kept'; readonly bytes: Uint8Array }
  /** A CSV file's header record: kept, and wanted apart by the rejected-rows file. */
  | { readonly kind: 'header'; readonly bytes: Uint8Array }
  | { readonly kind: 'withheld'; readonly row: number; readonly line: number; readonly bytes: Uint8Array | undefined };

/** A withheld row's place in the text: bytes [start, end) of the whole (inflated) text. */
export interface RowSpan {
  readonly row: number;
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

export interface TextWalkOptions {
  /** Where the rows are, for messages. */
  readonly path: string;
  /** The checker's limit: a longer record was passed over unbuffered, its bytes never held. */
  readonly maxRecordBytes: number;
  /** Go on to the end once the last withheld row is passed (a rewrite); else stop there. */
  readonly keepRest: boolean;
}

/**
 * Hands out a window's text in order, cut at withheld spans. Offsets are into the whole text;
 * bytes the window has already dropped (a record over the length limit is passed over without
 * being kept) can be withheld but not kept.
 */
export class TextCutter {
  /** Text before this offset has been handed out or withheld. */
  private done = 0;

  constructor(private readonly window: ChunkWindow, private readonly options: Pick<TextWalkOptions, 'path' | 'maxRecordBytes'>) {}

  /** The kept bytes up to `end` (nothing when there are none). */
  *keptUpTo(end: number, line: number): Generator<TextPiece> {
    if (end <= this.done) return;
    const from = this.done - this.window.dropped;
    if (from < 0) throw this.lost(line);
    const bytes = this.window.bytes.subarray(from, end - this.window.dropped);
    this.done = end;
    yield { kind: 'kept', bytes };
  }

  /** The kept bytes before a withheld span, then the span. */
  *withheld(span: RowSpan): Generator<TextPiece> {
    yield* this.keptUpTo(span.start, span.line);
    const from = span.start - this.window.dropped;
    const bytes = from < 0 ? undefined : this.window.bytes.subarray(from, span.end - this.window.dropped);
    this.done = Math.max(this.done, span.end);
    yield { kind: 'withheld', row: span.row, line: span.line, bytes };
  }

  /** The kept bytes before the header (a byte order mark), then the header record. */
  *header(start: number, end: number): Generator<TextPiece> {
    yield* this.keptUpTo(start, 1);
    const bytes = this.window.bytes.subarray(start - this.window.dropped, end - this.window.dropped);
    this.done = end;
    yield { kind: 'header', bytes };
  }

  private lost(line: number): Error {
    const where = Number.isNaN(line) ? 'a row' : `the row on line ${line}`;
    return unsupportedFile(this.options.path, undefined, 'text', `${where} is longer than the ${this.options.maxRecordBytes}-byte record limit, so its bytes were passed over unkept: it can be withheld, not kept`);
  }

  /** Everything after the last withheld row, as it is: the window's rest, then every later chunk. */
  async *rest(): AsyncGenerator<TextPiece> {
    yield* this.keptUpTo(this.window.dropped + this.window.bytes.length, Number.NaN);
    while ((await this.window.refill(this.window.bytes.length)) >= 0) {
      this.done = this.window.dropped + this.window.bytes.length;
      yield { kind: 'kept', bytes: this.window.bytes };
    }
  }
}
