/**
 * One 53-bit hash per row in scan order, NaN where the row has no complete key: 8 bytes a row.
 * Repeats are found once at the end by a radix partition on the top bits and a sort of each
 * cache-sized bucket, another 8 bytes a row while it runs. Rows are numbered by their position
 * here, an ordinal the caller maps back to a file and row.
 */
const BUCKET_BITS = 8;
const BUCKET_DIVISOR = 2 ** (53 - BUCKET_BITS);

export class KeyHashes {
  private hashes = new Float64Array(1 << 16);
  private length = 0;

  push(hash: number): void {
    if (this.length === this.hashes.length) this.reserve(this.length);
    this.hashes[this.length++] = hash;
  }

  /** Adds `count` rows that have no key (unreadable, null, or a column this file lacks). */
  pushMissing(count: number): void {
    this.reserve(count);
    this.hashes.fill(NaN, this.length, this.length + count);
    this.length += count;
  }

  /** Appends the hashes another slice of the partition computed, in their order. */
  pushAll(hashes: Float64Array): void {
    this.reserve(hashes.length);
    this.hashes.set(hashes, this.length);
    this.length += hashes.length;
  }

  /** A copy of the hashes so far, to hand to whoever merges slices. */
  toArray(): Float64Array {
    return this.hashes.slice(0, this.length);
  }

  /** Makes room for rows known to come, so the store does not grow while they arrive. */
  reserve(rows: number): void {
    if (this.length + rows <= this.hashes.length) return;
    const grown = new Float64Array(Math.max(this.length + rows, this.hashes.length * 2));
    grown.set(this.hashes.subarray(0, this.length));
    this.hashes = grown;
  }

  /** Ordinals whose hash occurs more than once, ascending: the only rows that can be duplicates. */
  candidates(): number[] {
    const repeated = this.repeatedHashes();
    if (repeated.size === 0) return [];
    const ordinals: number[] = [];
    for (let i = 0; i < this.length; i++) if (repeated.has(this.hashes[i]!)) ordinals.push(i);
    return ordinals;
  }

  private repeatedHashes(): Set<number> {
    const starts = new Uint32Array((1 << BUCKET_BITS) + 1);
    for (let i = 0; i < this.length; i++) {
      const hash = this.hashes[i]!;
      if (hash === hash) starts[((hash / BUCKET_DIVISOR) | 0) + 1]!++;
    }
    for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
    const partitioned = new Float64Array(starts[starts.length - 1]!);
    const next = starts.slice(0, -1);
    for (let i = 0; i < this.length; i++) {
      const hash = this.hashes[i]!;
      if (hash === hash) partitioned[next[(hash / BUCKET_DIVISOR) | 0]!++] = hash;
    }
    const repeated = new Set<number>();
    for (let b = 0; b + 1 < starts.length; b++) findRepeats(partitioned.subarray(starts[b], starts[b + 1]), repeated);
    return repeated;
  }
}

const SCRATCH = new Float64Array(1);
const SCRATCH_WORDS = new Uint32Array(SCRATCH.buffer);

/** An open-addressing set over one bucket: small enough to stay in cache, so probes are cheap. */
function findRepeats(bucket: Float64Array, repeated: Set<number>): void {
  let size = 16;
  while (size < bucket.length * 2) size *= 2;
  const table = new Float64Array(size).fill(NaN);
  const mask = size - 1;
  for (const hash of bucket) {
    SCRATCH[0] = hash;
    let slot = SCRATCH_WORDS[0]! & mask;
    for (;;) {
      const held = table[slot]!;
      if (held !== held) {
        table[slot] = hash;
        break;
      }
      if (held === hash) {
        repeated.add(hash);
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
}
