import { repeatedOrdinals } from './repeated-keys.js';

/**
 * One 53-bit hash per row in scan order, NaN where the row has no complete key: 8 bytes a row,
 * kept as the segments they arrived in (a row group's hashes are adopted, not copied); finding
 * repeats adds 4 more (see repeated-keys.ts). Rows are numbered by their position here, an
 * ordinal the caller maps back to a file and row.
 */
const TAIL_ROWS = 1 << 16;

export class KeyHashes {
  private readonly sealed: Float64Array[] = [];
  private tail = new Float64Array(0);
  private tailLength = 0;

  push(hash: number): void {
    if (this.tailLength === this.tail.length) {
      this.seal();
      this.tail = new Float64Array(TAIL_ROWS);
    }
    this.tail[this.tailLength++] = hash;
  }

  /** Adds `count` rows that have no key (unreadable, null, or a column this file lacks). */
  pushMissing(count: number): void {
    if (count > 0) this.pushAll(new Float64Array(count).fill(NaN));
  }

  /**
   * Appends hashes computed elsewhere (a row group, another slice), in their order: kept, not
   * copied, unless they are few. A large row group read in slices hands over thousands of short
   * runs, which are copied into the tail instead: kept as they came, they would all be joined
   * again when repeats are looked for (see repeated-keys.ts), a second copy of every hash.
   */
  pushAll(hashes: Float64Array): void {
    if (hashes.length >= TAIL_ROWS / 2) {
      this.seal();
      this.sealed.push(hashes);
      return;
    }
    for (let at = 0; at < hashes.length;) {
      if (this.tailLength === this.tail.length) {
        this.seal();
        this.tail = new Float64Array(TAIL_ROWS);
      }
      const count = Math.min(hashes.length - at, this.tail.length - this.tailLength);
      this.tail.set(hashes.subarray(at, at + count), this.tailLength);
      this.tailLength += count;
      at += count;
    }
  }

  /** The hashes so far, in order, to hand to whoever merges slices. */
  segments(): Float64Array[] {
    this.seal();
    return [...this.sealed];
  }

  /**
   * Ordinals whose hash occurs more than once, ascending: the only rows that can be duplicates.
   * Spends the store: its arrays are reordered in place to spare a copy of millions of hashes.
   */
  candidates(): Uint32Array {
    const segments = this.segments();
    this.sealed.length = 0;
    return repeatedOrdinals(segments);
  }

  private seal(): void {
    if (this.tailLength === 0) return;
    // A mostly empty tail is copied, so a short segment does not hold a whole tail's memory.
    this.sealed.push(this.tailLength * 2 < this.tail.length ? this.tail.slice(0, this.tailLength) : this.tail.subarray(0, this.tailLength));
    this.tail = new Float64Array(0);
    this.tailLength = 0;
  }
}
