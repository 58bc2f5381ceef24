import type { ByteWindow } from './byte-window.js';
import { UnreadableError } from './table-file.js';

/** The most bytes a run header and an RLE value take: a 5-byte varint and a 4-byte value. */
const RUN_HEAD_BYTES = 9;

/**
 * Reads an RLE/bit-packed hybrid stream (definition levels, dictionary indices) a few values at a
 * time, where hyparquet decodes a whole stream into one array: a page of 5 M indices would
 * otherwise cost 20 MB before the first is used. It reads from a window (see byte-window.ts), so
 * the page's bytes need not be whole either. Nothing is sized or looped by a run header's count,
 * only by the values asked for, and a stream that ends early is an error, not a short read.
 */
export class RleCursor {
  /** Values left in the current run. */
  private left = 0;
  private packed = false;
  private repeated = 0;
  /** Bits of the byte at `window.at` already read; 0 between runs, as a run of 8 values fills whole bytes. */
  private bit = 0;

  constructor(private readonly window: ByteWindow, private readonly width: number, private readonly what: string) {
    if (width > 32) throw new UnreadableError(`${what} claim a bit width of ${width}; at most 32 is possible`);
  }

  /** Fills `out[from, from + count)` with the next values. Waits only when the window must make more bytes. */
  async read(out: { [i: number]: number }, from: number, count: number): Promise<void> {
    const window = this.window;
    for (let i = from; i < from + count;) {
      while (this.left === 0) {
        if (window.end - window.at < RUN_HEAD_BYTES) await window.fill(RUN_HEAD_BYTES);
        this.nextRun();
      }
      const run = Math.min(this.left, from + count - i);
      if (this.packed) {
        const needed = Math.ceil((this.bit + run * this.width) / 8);
        if (window.end - window.at < needed) await window.fill(needed);
        if (window.end - window.at < needed) throw new UnreadableError(`${this.what} end inside a bit-packed run`);
        this.unpack(out, i, run);
      } else for (let k = 0; k < run; k++) out[i + k] = this.repeated;
      this.left -= run;
      i += run;
    }
  }

  private nextRun(): void {
    const window = this.window;
    const header = readVarInt(window);
    if (header === undefined) throw new UnreadableError(`${this.what} end before the page's values do`);
    this.packed = (header & 1) === 1;
    this.left = this.packed ? (header >>> 1) * 8 : header >>> 1;
    if (this.packed) return;
    const size = (this.width + 7) >> 3;
    if (window.end - window.at < size) throw new UnreadableError(`${this.what} end inside a run`);
    let value = 0;
    for (let i = 0; i < size; i++) value += window.bytes[window.at + i]! * 2 ** (8 * i);
    this.repeated = value;
    window.at += size;
  }

  /** `count` bit-packed values, whose bytes the window holds: `width` bits each, least significant first. */
  private unpack(out: { [i: number]: number }, from: number, count: number): void {
    const { window, width } = this;
    const bytes = window.bytes;
    let bit = window.at * 8 + this.bit;
    for (let i = 0; i < count; i++) {
      let value = 0;
      for (let got = 0; got < width;) {
        const shift = bit & 7;
        const take = Math.min(8 - shift, width - got);
        value += ((bytes[bit >>> 3]! >>> shift) & ((1 << take) - 1)) * 2 ** got;
        got += take;
        bit += take;
      }
      out[from + i] = value;
    }
    window.at = bit >>> 3;
    this.bit = bit & 7;
  }
}

/** hyparquet's readVarInt, wrapping at 32 bits as it does; undefined past the end of what is made. */
function readVarInt(window: ByteWindow): number | undefined {
  let result = 0;
  for (let shift = 0, at = window.at; at < window.end; shift += 7) {
    const byte = window.bytes[at++]!;
    result |= (byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      window.at = at;
      return result;
    }
  }
  return undefined;
}
