import type { ByteWindow } from './byte-window.js';
import { UNPACK_GROUP, type Out } from './bit-unpack.js';
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
  /** Values left in the current run, not counting those in `group`. */
  private left = 0;
  private packed = false;
  private repeated = 0;
  /** A bit-packed group of 8 values unpacked ahead, when a read ended inside it. */
  private readonly group = new Int32Array(8);
  /** Values of `group` not yet read: `group[8 - buffered, 8)`. */
  private buffered = 0;
  /** The stream ended inside the group in `group`: nothing comes after it. */
  private cut = false;
  private readonly unpackGroup: (bytes: Uint8Array, at: number, out: Out, o: number) => void;

  constructor(private readonly window: ByteWindow, private readonly width: number, private readonly what: string) {
    if (width > 32) throw new UnreadableError(`${what} claim a bit width of ${width}; at most 32 is possible`);
    this.unpackGroup = UNPACK_GROUP[width]!;
  }

  /** Fills `out[from, from + count)` with the next values. Waits only when the window must make more bytes. */
  async read(out: Out, from: number, count: number): Promise<void> {
    const window = this.window;
    for (let i = from; i < from + count;) {
      if (this.buffered > 0) {
        i = this.fromGroup(out, i, from + count);
        continue;
      }
      while (this.left === 0) {
        if (this.cut) throw new UnreadableError(`${this.what} end inside a bit-packed run`);
        if (window.end - window.at < RUN_HEAD_BYTES) await window.fill(RUN_HEAD_BYTES);
        this.nextRun();
      }
      const run = Math.min(this.left, from + count - i);
      if (!this.packed) {
        fillWith(out, this.repeated, i, run);
        this.left -= run;
        i += run;
      } else if (run >= 8) {
        // Whole groups straight into `out`; a packed run's count is a multiple of 8.
        const groups = run >> 3;
        if (window.end - window.at < groups * this.width) await window.fill(groups * this.width);
        if (window.end - window.at < groups * this.width) throw new UnreadableError(`${this.what} end inside a bit-packed run`);
        this.unpackGroups(out, i, groups);
        this.left -= groups * 8;
        i += groups * 8;
      } else await this.bufferGroup(run);
    }
  }

  private unpackGroups(out: Out, from: number, groups: number): void {
    const { window, width, unpackGroup } = this;
    const bytes = window.bytes;
    let at = window.at;
    for (let g = 0, o = from; g < groups; g++, o += 8, at += width) unpackGroup(bytes, at, out, o);
    window.at = at;
  }

  /**
   * Unpacks the run's next group into `group`, of which `wanted` values are asked for now. A stream
   * may end inside its last group (its padding need not be stored): the values whose bits are
   * there are read, asking for one past them is an error.
   */
  private async bufferGroup(wanted: number): Promise<void> {
    const { window, width } = this;
    if (window.end - window.at < width) await window.fill(width);
    const have = window.end - window.at;
    if (have >= width) {
      this.unpackGroup(window.bytes, window.at, this.group, 0);
      window.at += width;
      this.buffered = 8;
    } else {
      const readable = Math.floor((have * 8) / width);
      if (readable < wanted) throw new UnreadableError(`${this.what} end inside a bit-packed run`);
      unpackSlowly(window.bytes, window.at, width, this.group, 8 - readable, readable);
      window.at = window.end;
      this.buffered = readable;
      this.cut = true;
    }
    this.left -= 8;
  }

  /** Copies buffered values into `out[i, to)`; returns where it stopped. */
  private fromGroup(out: Out, i: number, to: number): number {
    const taking = Math.min(this.buffered, to - i);
    const at = 8 - this.buffered;
    for (let k = 0; k < taking; k++) out[i + k] = this.group[at + k]!;
    this.buffered -= taking;
    return i + taking;
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
}

function fillWith(out: Out, value: number, from: number, count: number): void {
  for (let k = 0; k < count; k++) out[from + k] = value;
}

/** `count` values `width` bits wide from `bytes` at `at`, bit by bit: only for a group cut short. */
function unpackSlowly(bytes: Uint8Array, at: number, width: number, out: Out, from: number, count: number): void {
  let bit = at * 8;
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
