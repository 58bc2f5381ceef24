import type { Producer } from './byte-window.js';
import { UnreadableError } from './table-file.js';

/** Bytes [from, to) of the compressed data, fetched when the decoder gets to them. */
export type ReadRange = (from: number, to: number) => Promise<Uint8Array>;

/** The longest element header: a tag and a 4-byte offset or literal length. */
const HEADER_BYTES = 5;

/**
 * A raw Snappy stream (the format Parquet pages use: a varint length, then literals and copies)
 * decoded as its output is asked for, from compressed bytes fetched a piece at a time: a page
 * of 80 MB from a file is never whole in memory, compressed or not. Copies read back into the
 * output the window keeps (see byte-window.ts); one that reaches further returns -1 and the
 * window decodes the page whole. Every element is checked against the input left and the
 * declared length, so a forged stream ends in an UnreadableError, never a write past the output.
 */
export class SnappyStream implements Producer {
  private input: Uint8Array = new Uint8Array(0);
  private inAt = 0;
  /** Compressed bytes fetched so far. */
  private fetched = 0;
  private produced = 0;
  /** Bytes still to come of a literal cut by the end of the input or of a step. */
  private literal = 0;
  private started = false;

  constructor(private readonly read: ReadRange, private readonly compressed: number, readonly total: number, private readonly pieceBytes: number) {}

  async more(): Promise<void> {
    if (this.fetched >= this.compressed) {
      const where = this.literal > 0 || this.inAt < this.input.length ? 'inside an element' : `after ${this.produced} of the ${this.total} bytes it declares`;
      throw new UnreadableError(`Snappy data ends ${where}`);
    }
    // What is left of the last piece is at most an element header (literals are taken in parts):
    // it is fetched again at the head of the next piece rather than copied into a joined one.
    const from = this.fetched - (this.input.length - this.inAt);
    const to = Math.min(this.compressed, Math.max(this.fetched + 1, from + this.pieceBytes));
    const piece = await this.read(from, to);
    if (piece.length !== to - from) throw new UnreadableError(`Snappy data: ${piece.length} bytes read where ${to - from} were asked for`);
    this.fetched = to;
    this.input = piece;
    this.inAt = 0;
  }

  checkEnd(): void {
    if (this.produced !== this.total || this.literal > 0) throw new UnreadableError(`Snappy data makes ${this.produced} bytes where it declares ${this.total}`);
    if (this.inAt < this.input.length || this.fetched < this.compressed) throw new UnreadableError(`Snappy data goes on past the ${this.total} bytes it declares`);
  }

  step(out: Uint8Array, from: number, to: number): number {
    if (!this.started && !this.readLength()) return from;
    const input = this.input;
    const last = this.fetched >= this.compressed;
    let at = this.inAt;
    let o = from;
    while (o < to) {
      if (this.literal > 0) {
        const n = Math.min(this.literal, input.length - at, to - o);
        if (n === 0) break;
        if (n < 32) for (let i = 0; i < n; i++) out[o + i] = input[at + i]!;
        else out.set(input.subarray(at, at + n), o);
        at += n;
        o += n;
        this.literal -= n;
        continue;
      }
      if (input.length - at < HEADER_BYTES && (!last || at >= input.length)) break;
      const tag = input[at]!;
      const kind = tag & 3;
      if (kind === 0) {
        at = this.literalHeader(input, at, this.produced + o - from);
        continue;
      }
      const size = kind === 1 ? 2 : kind === 2 ? 3 : 5;
      if (at + size > input.length) throw new UnreadableError('Snappy data ends inside a copy');
      const length = kind === 1 ? ((tag >>> 2) & 7) + 4 : (tag >>> 2) + 1;
      const offset = kind === 1 ? ((tag >>> 5) << 8) + input[at + 1]! : kind === 2 ? input[at + 1]! + input[at + 2]! * 256 : littleEndian(input, at + 1, 4);
      const made = this.produced + o - from;
      checkCopy(offset, length, made, this.total);
      // Further back than the window keeps: the caller decodes the page whole instead.
      if (offset > o) return this.save(at, o, from, -1);
      for (let i = 0; i < length; i++) out[o + i] = out[o - offset + i]!;
      o += length;
      at += size;
    }
    return this.save(at, o, from, o);
  }

  private save(at: number, o: number, from: number, result: number): number {
    this.inAt = at;
    this.produced += o - from;
    return result;
  }

  /** Reads a literal's header; its bytes are taken by the steps that follow. Returns the input position after it. */
  private literalHeader(input: Uint8Array, at: number, made: number): number {
    const code = input[at]! >>> 2;
    const extra = code < 60 ? 0 : code - 59;
    if (at + 1 + extra > input.length) throw new UnreadableError('Snappy data ends inside a literal\'s length');
    const length = (extra === 0 ? code : littleEndian(input, at + 1, extra)) + 1;
    if (made + length > this.total) throw new UnreadableError(`Snappy data holds a literal of ${length} bytes at byte ${made}, past the ${this.total} bytes it declares`);
    this.literal = length;
    return at + 1 + extra;
  }

  /** The varint the data starts with must state the length the page header declares. */
  private readLength(): boolean {
    const last = this.fetched >= this.compressed;
    if (this.input.length - this.inAt < HEADER_BYTES && !last) return false;
    let length = 0;
    let at = this.inAt;
    for (let scale = 1; ; scale *= 128) {
      const byte = this.input[at++];
      if (byte === undefined || scale > 2 ** 28) throw new UnreadableError('Snappy data does not start with its length');
      length += (byte & 0x7f) * scale;
      if (!(byte & 0x80)) break;
    }
    if (length !== this.total) throw new UnreadableError(`Snappy data declares ${length} bytes but its page header says ${this.total}`);
    this.inAt = at;
    this.started = true;
    return true;
  }
}

function checkCopy(offset: number, length: number, made: number, total: number): void {
  if (offset === 0 || offset > made) throw new UnreadableError(`Snappy data copies from ${offset} bytes back at byte ${made}, before the start of its output`);
  if (made + length > total) throw new UnreadableError(`Snappy data copies ${length} bytes at byte ${made}, past the ${total} bytes it declares`);
}

function littleEndian(bytes: Uint8Array, at: number, count: number): number {
  let value = 0;
  for (let i = count - 1; i >= 0; i--) value = value * 256 + bytes[at + i]!;
  return value;
}
