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

  /** Appends hashes computed elsewhere (a row group, another slice), in their order; kept, not copied. */
  pushAll(hashes: Float64Array): void {
    this.seal();
    if (hashes.length > 0) this.sealed.push(hashes);
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
  candidates(): number[] {
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
