/**
 * Finds the rows whose key hash occurs more than once among millions, in about 12 bytes a row.
 * Each segment of hashes is sorted in place by the hash's top bits (a counting sort through one
 * scratch array, which stays in cache for a row group's worth), keeping each hash's row beside it
 * in 4 bytes; then each bucket's runs from every segment pass through one small hash set.
 */
const BUCKET_BITS = 12;
const BUCKETS = 1 << BUCKET_BITS;
/** Multiplying by a power of two is exact, and quicker than dividing. */
const TO_BUCKET = 2 ** -(53 - BUCKET_BITS);
/** Smaller segments are joined first, so each one's bucket table (16 KiB) stays a small overhead. */
const MIN_SEGMENT_ROWS = 1 << 16;
const TWO_POW_21 = 2 ** 21;

/** A segment sorted by bucket: `rows[i]` is where `hashes[i]` was; bucket b is [starts[b], starts[b + 1]). */
interface SortedSegment {
  readonly hashes: Float64Array;
  readonly rows: Uint32Array;
  readonly starts: Uint32Array;
  /** The ordinal of the segment's first row. */
  readonly first: number;
}

/**
 * Ordinals (positions across the segments, in order) whose hash repeats, ascending; NaN is no
 * key and never repeats. The segments' contents are reordered: the caller hands them over.
 * Each bucket is counted and then swept once for its repeats, so a whole file uploaded twice
 * (every hash repeating) costs what a clean one does.
 */
export function repeatedOrdinals(segments: readonly Float64Array[]): Uint32Array {
  const sorted = sortSegments(joinSmall(segments));
  const sizes = new Uint32Array(BUCKETS);
  for (const segment of sorted) for (let b = 0; b < BUCKETS; b++) sizes[b]! += segment.starts[b + 1]! - segment.starts[b]!;
  const table = new RepeatTable(Math.max(0, ...sizes));
  const found = new OrdinalList(sorted.reduce((sum, segment) => sum + segment.hashes.length, 0));
  for (let b = 0; b < BUCKETS; b++) if (sizes[b]! > 1) table.collect(sorted, b, sizes[b]!, found);
  return found.sorted();
}

/**
 * The repeated ordinals as one bit each: set in bucket order, read back in ordinal order, so
 * a million repeats need no sort and an eighth of a byte a row. Ordinals fit 32 bits, as rows do.
 */
class OrdinalList {
  private readonly bits: Uint32Array;
  private count = 0;

  constructor(rows: number) {
    this.bits = new Uint32Array(Math.ceil(rows / 32));
  }

  push(ordinal: number): void {
    this.bits[ordinal >>> 5]! |= 1 << (ordinal & 31);
    this.count += 1;
  }

  sorted(): Uint32Array {
    const out = new Uint32Array(this.count);
    let at = 0;
    for (let word = 0; word < this.bits.length && at < out.length; word++) {
      let bits = this.bits[word]!;
      while (bits !== 0) {
        const low = 31 - Math.clz32(bits & -bits);
        out[at++] = word * 32 + low;
        bits &= bits - 1;
      }
    }
    return out;
  }
}

function bucketOf(hash: number): number {
  return (hash * TO_BUCKET) | 0;
}

function joinSmall(segments: readonly Float64Array[]): { hashes: Float64Array; first: number }[] {
  const joined: { hashes: Float64Array; first: number }[] = [];
  let first = 0;
  for (let i = 0; i < segments.length;) {
    let end = i;
    let rows = 0;
    while (end < segments.length && (end === i || (rows < MIN_SEGMENT_ROWS && segments[end]!.length < MIN_SEGMENT_ROWS))) rows += segments[end++]!.length;
    joined.push({ hashes: end === i + 1 ? segments[i]! : joinSegments(segments.slice(i, end)), first });
    first += rows;
    i = end;
  }
  return joined;
}

/** Segments as one array, for consumers that want them whole (a fan-out file's shards). */
export function joinSegments(parts: readonly Float64Array[]): Float64Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Float64Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function sortSegments(segments: readonly { hashes: Float64Array; first: number }[]): SortedSegment[] {
  const scratch = new Float64Array(Math.max(0, ...segments.map((s) => s.hashes.length)));
  return segments.map(({ hashes, first }) => {
    // Bucket BUCKETS holds the rows without a key, after every real bucket.
    const starts = new Uint32Array(BUCKETS + 2);
    for (let i = 0; i < hashes.length; i++) {
      const hash = hashes[i]!;
      starts[(hash === hash ? bucketOf(hash) : BUCKETS) + 1]!++;
    }
    for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
    const next = starts.slice(0, BUCKETS + 1);
    const rows = new Uint32Array(hashes.length);
    for (let i = 0; i < hashes.length; i++) {
      const hash = hashes[i]!;
      const at = next[hash === hash ? bucketOf(hash) : BUCKETS]!++;
      scratch[at] = hash;
      rows[at] = i;
    }
    hashes.set(scratch.subarray(0, hashes.length));
    return { hashes, rows, starts, first };
  });
}

/** An open-addressing count table reused bucket after bucket: small enough to stay in cache. */
class RepeatTable {
  private readonly slots: Float64Array;
  private readonly counts: Uint32Array;

  constructor(largestBucket: number) {
    this.slots = new Float64Array(tableSize(largestBucket));
    this.counts = new Uint32Array(this.slots.length);
  }

  /** Counts the bucket's hashes, then sweeps the bucket again for the rows whose hash counted twice. */
  collect(segments: readonly SortedSegment[], bucket: number, size: number, found: OrdinalList): void {
    const mask = tableSize(size) - 1;
    this.slots.fill(NaN, 0, mask + 1);
    this.counts.fill(0, 0, mask + 1);
    let repeats = false;
    for (const { hashes, starts } of segments) {
      for (let i = starts[bucket]!; i < starts[bucket + 1]!; i++) if (++this.counts[this.slotOf(hashes[i]!, mask)]! > 1) repeats = true;
    }
    if (!repeats) return;
    for (const { hashes, rows, starts, first } of segments) {
      for (let i = starts[bucket]!; i < starts[bucket + 1]!; i++) if (this.counts[this.slotOf(hashes[i]!, mask)]! > 1) found.push(first + rows[i]!);
    }
  }

  /** The slot holding `hash`, claimed for it when absent. */
  private slotOf(hash: number, mask: number): number {
    const slots = this.slots;
    // Both halves of the hash (see key-hash.ts fold): a double's low word is zeros for small ones.
    const high = Math.floor(hash / TWO_POW_21);
    let slot = ((hash - high * TWO_POW_21) ^ high) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (held === hash) return slot;
      if (held !== held) {
        slots[slot] = hash;
        return slot;
      }
      slot = (slot + 1) & mask;
    }
  }
}

function tableSize(entries: number): number {
  let size = 16;
  while (size < entries * 2) size *= 2;
  return size;
}
