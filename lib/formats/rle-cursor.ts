import { readVarInt } from './rle-runs.js';
import { UnreadableError } from './table-file.js';

/**
 * Reads an RLE/bit-packed hybrid stream (dictionary indices) a few values at a time, where
 * hyparquet decodes a whole stream into one array: a page of 5 M indices would otherwise cost
 * 20 MB before the first is used. The run headers were checked against the page's bytes before
 * (see rle-runs.ts); a stream that ends early is still an error here, not a short read.
 */
export class RleCursor {
  private at: number;
  /** Values left in the current run. */
  private left = 0;
  private packed = false;
  private repeated = 0;
  /** Bit position of the next bit-packed value, from the start of the bytes. */
  private bit = 0;

  constructor(private readonly bytes: Uint8Array, start: number, private readonly width: number) {
    this.at = start;
  }

  /** Fills `out[from, from + count)` with the next values. */
  read(out: { [i: number]: number }, from: number, count: number): void {
    for (let i = from; i < from + count;) {
      while (this.left === 0) this.nextRun();
      const run = Math.min(this.left, from + count - i);
      if (this.packed) for (let k = 0; k < run; k++) out[i + k] = this.unpack();
      else for (let k = 0; k < run; k++) out[i + k] = this.repeated;
      this.left -= run;
      i += run;
    }
  }

  private nextRun(): void {
    const cursor = { at: this.at };
    const header = readVarInt(this.bytes, cursor);
    if (header === undefined) throw new UnreadableError('dictionary indices end before the page\'s values do');
    this.packed = (header & 1) === 1;
    if (this.packed) {
      // A bit-packed run is whole groups of 8; padding past the page's values is never read.
      this.left = (header >>> 1) * 8;
      this.bit = cursor.at * 8;
      this.at = cursor.at + (header >>> 1) * this.width;
    } else {
      this.left = header >>> 1;
      const size = (this.width + 7) >> 3;
      let value = 0;
      for (let i = 0; i < size; i++) value += (this.bytes[cursor.at + i] ?? 0) * 2 ** (8 * i);
      this.repeated = value;
      this.at = cursor.at + size;
    }
  }

  /** The next bit-packed value: `width` bits, least significant first, across bytes. */
  private unpack(): number {
    const { bytes, width } = this;
    let value = 0;
    for (let got = 0; got < width;) {
      const byte = bytes[this.bit >>> 3];
      if (byte === undefined) throw new UnreadableError('dictionary indices end inside a bit-packed run');
      const shift = this.bit & 7;
      const take = Math.min(8 - shift, width - got);
      value += ((byte >>> shift) & ((1 << take) - 1)) * 2 ** got;
      got += take;
      this.bit += take;
    }
    return value;
  }
}
