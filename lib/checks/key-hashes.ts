/**
 * One 53-bit hash per row in scan order, NaN where the row has no complete key: 8 bytes a row,
 * kept as the segments they arrived in (a row group's hashes are adopted, not copied). Repeats
 * are found once at the end by a radix partition on the top bits, in passes of at most PASS_ROWS
 * hashes, and a small hash set per cache-sized bucket: about 10 bytes a row at the peak. Rows are
 * numbered by their position here, an ordinal the caller maps back to a file and row.
 */
const BUCKET_BITS = 12;
/** Multiplying by a power of two is exact, and quicker than dividing. */
const TO_BUCKET = 2 ** -(53 - BUCKET_BITS);
const PASS_ROWS = 1 << 21;
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

  /** Ordinals whose hash occurs more than once, ascending: the only rows that can be duplicates. */
  candidates(): number[] {
    const segments = this.segments();
    const repeated = repeatedHashes(segments);
    if (repeated.size === 0) return [];
    const marked = new Uint8Array(1 << BUCKET_BITS);
    for (const hash of repeated) marked[bucketOf(hash)] = 1;
    const ordinals: number[] = [];
    let ordinal = 0;
    for (const segment of segments) {
      for (let i = 0; i < segment.length; i++, ordinal++) {
        const hash = segment[i]!;
        // The bucket flag spares the set lookup for all but a few rows.
        if (hash === hash && marked[bucketOf(hash)] && repeated.has(hash)) ordinals.push(ordinal);
      }
    }
    return ordinals;
  }

  private seal(): void {
    if (this.tailLength === 0) return;
    // A mostly empty tail is copied, so a short segment does not hold a whole tail's memory.
    this.sealed.push(this.tailLength * 2 < this.tail.length ? this.tail.slice(0, this.tailLength) : this.tail.subarray(0, this.tailLength));
    this.tail = new Float64Array(0);
    this.tailLength = 0;
  }
}

/** One array of a key set's segments, for consumers that want them whole (a fan-out file's shards). */
export function joinSegments(segments: readonly Float64Array[]): Float64Array {
  if (segments.length === 1) return segments[0]!;
  const joined = new Float64Array(segments.reduce((sum, s) => sum + s.length, 0));
  let at = 0;
  for (const segment of segments) {
    joined.set(segment, at);
    at += segment.length;
  }
  return joined;
}

function bucketOf(hash: number): number {
  return (hash * TO_BUCKET) | 0;
}

function repeatedHashes(segments: readonly Float64Array[]): Set<number> {
  const total = segments.reduce((sum, s) => sum + s.length, 0);
  // 2 bytes a row: each hash's bucket, worked out once for every pass. 0 marks no key.
  const buckets = new Uint16Array(total);
  const counts = new Uint32Array(1 << BUCKET_BITS);
  let row = 0;
  for (const segment of segments) {
    for (let i = 0; i < segment.length; i++, row++) {
      const hash = segment[i]!;
      if (hash !== hash) continue;
      const bucket = bucketOf(hash);
      buckets[row] = bucket + 1;
      counts[bucket]!++;
    }
  }
  const repeated = new Set<number>();
  const table = new RepeatTable(Math.max(...counts));
  for (const [from, to] of passes(counts)) collectRepeats(segments, buckets, counts, from, to, table, repeated);
  return repeated;
}

/** Runs of whole buckets of about PASS_ROWS hashes each: one scratch array of that size per pass. */
function passes(counts: Uint32Array): [number, number][] {
  const runs: [number, number][] = [];
  let from = 0;
  let rows = 0;
  for (let bucket = 0; bucket < counts.length; bucket++) {
    if (rows > 0 && rows + counts[bucket]! > PASS_ROWS) {
      runs.push([from, bucket]);
      from = bucket;
      rows = 0;
    }
    rows += counts[bucket]!;
  }
  if (rows > 0) runs.push([from, counts.length]);
  return runs;
}

/** Scatters the hashes of buckets [from, to) into place, then looks for repeats bucket by bucket. */
function collectRepeats(segments: readonly Float64Array[], buckets: Uint16Array, counts: Uint32Array, from: number, to: number, table: RepeatTable, repeated: Set<number>): void {
  const starts = new Uint32Array(to - from + 1);
  for (let b = from; b < to; b++) starts[b - from + 1] = starts[b - from]! + counts[b]!;
  const partitioned = new Float64Array(starts[to - from]!);
  const next = starts.slice(0, -1);
  // Stored buckets are 1-based, so the range test also skips rows without a key.
  const low = from + 1;
  const high = to + 1;
  let row = 0;
  for (const segment of segments) {
    for (let i = 0; i < segment.length; i++, row++) {
      const bucket = buckets[row]!;
      if (bucket >= low && bucket < high) partitioned[next[bucket - low]!++] = segment[i]!;
    }
  }
  for (let b = 0; b < to - from; b++) table.collect(partitioned, starts[b]!, starts[b + 1]!, repeated);
}

const TWO_POW_21 = 2 ** 21;

/** An open-addressing set reused bucket after bucket: small enough to stay in cache. */
class RepeatTable {
  private readonly slots: Float64Array;

  constructor(largestBucket: number) {
    let size = 16;
    while (size < largestBucket * 2) size *= 2;
    this.slots = new Float64Array(size);
  }

  collect(hashes: Float64Array, start: number, end: number, repeated: Set<number>): void {
    let size = 16;
    while (size < (end - start) * 2) size *= 2;
    const slots = this.slots;
    slots.fill(NaN, 0, size);
    const mask = size - 1;
    for (let i = start; i < end; i++) {
      const hash = hashes[i]!;
      // Both halves of the hash (see key-hash.ts fold): a double's low word is zeros for small ones.
      const high = Math.floor(hash / TWO_POW_21);
      let slot = ((hash - high * TWO_POW_21) ^ high) & mask;
      for (;;) {
        const held = slots[slot]!;
        if (held !== held) {
          slots[slot] = hash;
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
}
