/** An empty slot: key hashes (checks/key-hash.ts) are whole numbers from 0 to 2^53. */
const EMPTY = -1;
const FIRST_CAPACITY = 16;
/** Grown past 70% full: linear probing stays short with well-mixed hashes. */
const MAX_LOAD = 0.7;

/**
 * A set of 53-bit key hashes in one Float64Array, open addressing with linear probing: 11 to 23
 * bytes a hash, where a Set of numbers costs about 40. The key search holds one per row of each
 * candidate still unique, so this is most of its memory.
 */
export class HashSet {
  private slots = new Float64Array(FIRST_CAPACITY).fill(EMPTY);
  size = 0;

  /** Adds `hash`; false when it was already there. */
  add(hash: number): boolean {
    if (this.size + 1 > this.slots.length * MAX_LOAD) this.grow();
    const mask = this.slots.length - 1;
    for (let i = hash % 2 ** 32 & mask; ; i = (i + 1) & mask) {
      const slot = this.slots[i]!;
      if (slot === hash) return false;
      if (slot === EMPTY) {
        this.slots[i] = hash;
        this.size++;
        return true;
      }
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2).fill(EMPTY);
    this.size = 0;
    for (const hash of old) if (hash !== EMPTY) this.add(hash);
  }
}
