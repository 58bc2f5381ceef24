import { MAX_SAMPLES, type Sample } from '../report/report.js';
import { asSafeNumber } from './sample-value.js';

/** Where a duplicated key was seen: the file, the row within the file, and the key as a sample shows it. */
export interface KeyOccurrence { readonly fileIndex: number; readonly row: number; readonly sample: Sample }

/** A key set's confirmed duplicates: every repeated key counted, a few occurrences kept to show. */
export interface DuplicateSummary {
  /** Distinct keys that occur more than once. */
  readonly count: number;
  /** The first occurrences of repeated keys, in the order they were added, at most MAX_SAMPLES. */
  readonly samples: readonly KeyOccurrence[];
}

/**
 * Extra tentative samples kept beyond MAX_SAMPLES: an occurrence is kept before its key is known
 * to repeat, and only a true 53-bit hash collision leaves a kept one alone in its group.
 */
const SPARE_SAMPLES = MAX_SAMPLES;
const UTF8 = new TextEncoder();
const FLOAT = new Float64Array(1);
const FLOAT_BYTES = new Uint8Array(FLOAT.buffer);
/** Text and bytes share a tag: one key column's values come as either, by how each page was read. */
const TEXT_TAG = 3;

/**
 * Counts keys by exact identity in a few bytes per key: groups are found by hash in an
 * open-addressing table and each group keeps its first identity as UTF-8 in one arena, so a
 * million repeated keys are a few tens of MB and no object per row. Identities with equal hashes
 * but different text get groups of their own (chained), so a collision never makes a duplicate.
 */
export class DuplicateTally {
  private hashes: Float64Array;
  private heads: Int32Array;
  private next: Int32Array;
  private counts: Uint32Array;
  private starts: Uint32Array;
  private arena: Uint8Array;
  private groups = 0;
  private readonly kept: { group: number; occurrence: KeyOccurrence }[] = [];

  /** `expected`: about how many occurrences will be added (the candidate rows), to size the table. */
  constructor(expected: number) {
    // Each repeated key is two candidates or more: half as many groups as candidates, at most half full.
    let size = 16;
    while (size < expected) size *= 2;
    this.hashes = new Float64Array(size).fill(NaN);
    this.heads = new Int32Array(size).fill(-1);
    // Sized for every candidate being one of a pair, so a file uploaded twice never regrows them.
    const groups = Math.max(1024, Math.ceil(expected / 2) + 1);
    this.next = new Int32Array(groups);
    this.counts = new Uint32Array(groups);
    this.starts = new Uint32Array(groups + 1);
    this.arena = new Uint8Array(Math.max(1 << 16, groups * 16));
  }

  /**
   * Files the key of row `row` of `columns` (its hash computed by the caller from the same
   * values); returns its group, to pass to keep() when wantsSample() says so.
   */
  add(hash: number, columns: readonly ArrayLike<unknown>[], row: number): number {
    const slot = this.slotOf(hash);
    const bytes = this.encodeKey(columns, row);
    for (let group = this.heads[slot]!; group >= 0; group = this.next[group]!) {
      if (this.matches(group, bytes)) {
        this.counts[group]! += 1;
        return group;
      }
    }
    return this.newGroup(slot, bytes);
  }

  wantsSample(): boolean {
    return this.kept.length < MAX_SAMPLES + SPARE_SAMPLES;
  }

  keep(group: number, occurrence: KeyOccurrence): void {
    if (this.wantsSample()) this.kept.push({ group, occurrence });
  }

  summary(): DuplicateSummary {
    let count = 0;
    for (let group = 0; group < this.groups; group++) if (this.counts[group]! > 1) count += 1;
    const samples = this.kept.filter((k) => this.counts[k.group]! > 1).slice(0, MAX_SAMPLES).map((k) => k.occurrence);
    return { count, samples };
  }

  private slotOf(hash: number): number {
    const mask = this.hashes.length - 1;
    let slot = (hash ^ Math.floor(hash / 2 ** 21)) & mask;
    for (;;) {
      const held = this.hashes[slot]!;
      if (held === hash) return slot;
      if (held !== held) {
        if (this.groups * 2 >= this.hashes.length) return this.grow(hash);
        this.hashes[slot] = hash;
        return slot;
      }
      slot = (slot + 1) & mask;
    }
  }

  /**
   * The key's exact identity, written after the arena's last group and kept only if new: per
   * part a type tag, then a length and UTF-8 for text, or the 8 bytes of a number, so parts
   * cannot run into each other or pass for another type. An int64 that fits is its number, -0 is 0,
   * and text is its UTF-8 bytes whether it came decoded or not (key hashes treat them alike too).
   */
  private encodeKey(columns: readonly ArrayLike<unknown>[], row: number): number {
    const start = this.starts[this.groups]!;
    let at = start;
    for (const column of columns) {
      const part = asSafeNumber(column[row]);
      if (typeof part === 'number') {
        FLOAT[0] = part === 0 ? 0 : part === part ? part : NaN;
        this.reserve(at, 9);
        this.arena[at] = 1;
        this.arena.set(FLOAT_BYTES, at + 1);
        at += 9;
      } else if (part instanceof Uint8Array) {
        at = this.writeBytes(at, TEXT_TAG, part);
      } else {
        at = this.writeText(at, typeof part === 'string' ? TEXT_TAG : 4, typeof part === 'string' ? part : `${typeof part}:${String(part)}`);
      }
    }
    return at - start;
  }

  private writeBytes(at: number, tag: number, bytes: Uint8Array): number {
    this.reserve(at, bytes.length + 5);
    this.arena[at] = tag;
    writeLength(this.arena, at + 1, bytes.length);
    this.arena.set(bytes, at + 5);
    return at + 5 + bytes.length;
  }

  /** ASCII byte by byte (most keys), anything else through the encoder. */
  private writeText(at: number, tag: number, text: string): number {
    this.reserve(at, text.length * 3 + 5);
    const arena = this.arena;
    arena[at] = tag;
    let i = 0;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) break;
      arena[at + 5 + i] = code;
    }
    const written = i === text.length ? i : i + UTF8.encodeInto(text.slice(i), arena.subarray(at + 5 + i)).written;
    writeLength(arena, at + 1, written);
    return at + 5 + written;
  }

  private reserve(at: number, bytes: number): void {
    while (this.arena.length - at < bytes) this.arena = grown(this.arena, this.arena.length * 2);
  }

  private matches(group: number, length: number): boolean {
    const start = this.starts[group]!;
    if (this.starts[group + 1]! - start !== length) return false;
    const candidate = this.starts[this.groups]!;
    for (let i = 0; i < length; i++) if (this.arena[start + i] !== this.arena[candidate + i]) return false;
    return true;
  }

  private newGroup(slot: number, length: number): number {
    const group = this.groups++;
    if (this.groups >= this.counts.length) {
      this.next = grown(this.next, this.counts.length * 2);
      this.starts = grown(this.starts, this.counts.length * 2 + 1);
      this.counts = grown(this.counts, this.counts.length * 2);
    }
    this.starts[this.groups] = this.starts[group]! + length;
    this.counts[group] = 1;
    this.next[group] = this.heads[slot]!;
    this.heads[slot] = group;
    return group;
  }

  /** Doubles the table when half full (more occurrences than expected) and finds `hash` a slot. */
  private grow(hash: number): number {
    const old = { hashes: this.hashes, heads: this.heads };
    this.hashes = new Float64Array(old.hashes.length * 2).fill(NaN);
    this.heads = new Int32Array(old.heads.length * 2).fill(-1);
    for (let i = 0; i < old.hashes.length; i++) {
      const held = old.hashes[i]!;
      if (held === held) this.heads[this.slotOf(held)] = old.heads[i]!;
    }
    return this.slotOf(hash);
  }
}

function writeLength(bytes: Uint8Array, at: number, length: number): void {
  bytes[at] = length & 0xff;
  bytes[at + 1] = (length >>> 8) & 0xff;
  bytes[at + 2] = (length >>> 16) & 0xff;
  bytes[at + 3] = length >>> 24;
}

function grown<T extends Uint8Array | Uint32Array | Int32Array>(array: T, length: number): T {
  const out = new (array.constructor as new (n: number) => T)(length);
  out.set(array);
  return out;
}
