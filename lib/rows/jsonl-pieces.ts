import { isBlank } from '../formats/json-line-object.js';
import { LineScanner, type ChunkWindow, type LineSink } from '../formats/line-scanner.js';
import { unsupportedFile } from './row-errors.js';
import { TextCutter, type RowSpan, type TextPiece, type TextWalkOptions } from './text-pieces.js';
import { rowsPastEnd } from './withheld-rows.js';

const CR = 0x0d;

/**
 * A JSON Lines file's text cut at the given rows (ascending), numbered as JsonLinesBatchBuilder
 * numbers them: every line is a row but a blank one, a line over the length limit included.
 * The scanner is the checker's, with the same limit, so the two can never count apart.
 */
export async function* jsonlPieces(window: ChunkWindow, rows: readonly number[], options: TextWalkOptions): AsyncGenerator<TextPiece> {
  const cutter = new TextCutter(window, options);
  const scanner = new LineScanner(window, options.maxRecordBytes);
  const picker = new LinePicker(window, rows, options.path);
  try {
    if (rows.length === 0) return yield* options.keepRest ? cutter.rest() : [];
    await scanner.begin();
    picker.lineEnd = window.dropped + contentStartOf(window);
    let more = true;
    while (more && !picker.done) {
      scanner.scan(picker);
      for (const span of picker.takeSpans()) yield* cutter.withheld(span);
      if (picker.done) break;
      yield* cutter.keptUpTo(picker.lineEnd, picker.lineNumber);
      more = await scanner.refill();
    }
    if (!more) {
      scanner.finish(picker);
      picker.closeGap(window.dropped + window.bytes.length);
      for (const span of picker.takeSpans()) yield* cutter.withheld(span);
    }
    if (!picker.done) throw rowsPastEnd(options.path, rows, picker.next, picker.row);
    if (options.keepRest) yield* cutter.rest();
  } finally {
    await window.close();
  }
}

/** LineScanner has consumed a byte order mark when the window starts with one. */
function contentStartOf(window: ChunkWindow): number {
  const b = window.bytes;
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
}

/**
 * Counts rows as the scanner hands over lines and notes the withheld ones. A line over the
 * limit arrives without its place (its bytes were passed over), so it is placed after the fact:
 * it fills the gap between the line before it and the line after it.
 */
class LinePicker implements LineSink {
  row = 0;
  next = 0;
  /** Offset into the text just past the last line handed over. */
  lineEnd = 0;
  lineNumber = 1;
  private spans: RowSpan[] = [];
  /** Lines over the limit since the last line handed over: their rows, lines, and whether withheld. */
  private long: { row: number; line: number; withheld: boolean }[] = [];

  constructor(private readonly window: ChunkWindow, private readonly rows: readonly number[], private readonly path: string) {}

  get done(): boolean {
    return this.next >= this.rows.length && this.long.length === 0;
  }

  line(lineNumber: number, b: Buffer, start: number, end: number): void {
    const from = this.window.dropped + start;
    this.closeGap(from);
    // `end` leaves out the line's CR; the line runs on to just past its LF, or to the text's end.
    const to = this.window.dropped + Math.min(b.length, b[end] === CR ? end + 2 : end + 1);
    if (!isBlank(b, start, end) && this.take()) this.spans.push({ row: this.row - 1, line: lineNumber, start: from, end: to });
    this.lineEnd = to;
    this.lineNumber = lineNumber + 1;
  }

  tooLong(lineNumber: number): void {
    const withheld = this.take();
    this.long.push({ row: this.row - 1, line: lineNumber, withheld });
    this.lineNumber = lineNumber + 1;
  }

  /** Places the long lines before text offset `end`: withheld together, or kept together. */
  closeGap(end: number): void {
    const long = this.long.splice(0);
    if (long.length === 0) return;
    const withheld = long.filter((l) => l.withheld);
    if (withheld.length > 0 && withheld.length < long.length) {
      throw unsupportedFile(this.path, undefined, 'JSON Lines', `lines ${long[0]!.line}-${long.at(-1)!.line} are each over the line limit, and only some of them are to be withheld: their bytes were passed over, so they cannot be told apart`);
    }
    if (withheld.length > 0) long.forEach((l, i) => this.spans.push({ row: l.row, line: l.line, start: i === 0 ? this.lineEnd : end, end }));
    this.lineEnd = end;
  }

  takeSpans(): RowSpan[] {
    return this.spans.splice(0);
  }

  private take(): boolean {
    if (this.row++ !== this.rows[this.next]) return false;
    this.next++;
    return true;
  }
}
