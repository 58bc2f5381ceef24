import { hashParts, hashValue } from '../checks/key-hash.js';
import { HashSet } from './hash-set.js';

/**
 * Key hashes held at once, over every candidate still unique, within one partition: about 6 ×
 * 11 to 23 bytes = 70 to 140 MB at worst. Past it the least plausible candidates are set aside.
 */
export const KEY_HASH_BUDGET = 6_000_000;

/** Why, and in which partition (0-based), a candidate stopped being a key. */
export interface KeyFailure {
  readonly partition: number;
  /** `missing`: a file of the partition lacks a column; `budget`: set aside to bound memory. */
  readonly reason: 'null' | 'repeat' | 'missing' | 'budget';
}

export interface KeyResult {
  readonly columns: readonly string[];
  /** Undefined: unique and non-null in every partition. */
  readonly failure?: KeyFailure;
}

interface TrackedKey {
  readonly columns: readonly string[];
  /** Lower is more plausible; the budget sets aside the highest first. */
  readonly priority: number;
  failure?: KeyFailure;
  seen: HashSet;
}

/**
 * Finds the column sets that are unique and never null within every partition, as the engine's
 * `grain` is checked: per partition, across its files, never across partitions. A key drops out
 * at its first null or repeat, so only keys still in the running hold memory, one 53-bit hash a
 * row (the engine's own hash), and never more than `budget` hashes in all: inserts, and so time,
 * are bounded by it too. A hash collision can only drop a good key, never keep a bad one.
 */
export class KeyTracker {
  private readonly keys: TrackedKey[] = [];
  private partition = 0;
  private held = 0;

  constructor(private readonly budget = KEY_HASH_BUDGET) {}

  add(columns: readonly string[], priority = 0): void {
    const id = columns.join('\u0000');
    if (!this.keys.some((k) => k.columns.join('\u0000') === id)) this.keys.push({ columns, priority, seen: new HashSet() });
  }

  observe(batch: ReadonlyMap<string, ArrayLike<unknown>>, rowCount: number): void {
    for (const key of this.keys) {
      if (key.failure) continue;
      const before = key.seen.size;
      const reason = observeKey(key.seen, key.columns.map((name) => batch.get(name)), rowCount);
      this.held += key.seen.size - before;
      if (reason) this.fail(key, reason);
      if (this.held > this.budget) this.setAside();
    }
  }

  /** Uniqueness is per partition: the next one starts afresh. */
  endPartition(): void {
    for (const key of this.keys) if (!key.failure) key.seen = new HashSet();
    this.held = 0;
    this.partition++;
  }

  unique(): (readonly string[])[] {
    return this.keys.filter((k) => !k.failure).map((k) => k.columns);
  }

  results(): KeyResult[] {
    return this.keys.map((k) => ({ columns: k.columns, ...(k.failure ? { failure: k.failure } : {}) }));
  }

  /** Drops the least plausible live keys, the latest added first, until the hashes fit the budget. */
  private setAside(): void {
    const live = this.keys.filter((k) => !k.failure).reverse().sort((a, b) => b.priority - a.priority);
    for (const key of live) {
      if (this.held <= this.budget) return;
      this.fail(key, 'budget');
    }
  }

  private fail(key: TrackedKey, reason: KeyFailure['reason']): void {
    this.held -= key.seen.size;
    key.failure = { partition: this.partition, reason };
    key.seen = new HashSet();
  }
}

/** Feeds one batch of a key's columns; the reason it stopped being unique, if it did. */
function observeKey(seen: HashSet, parts: (ArrayLike<unknown> | undefined)[], rowCount: number): KeyFailure['reason'] | undefined {
  // A file without the column: it cannot be the grain.
  if (parts.some((part) => part === undefined)) return 'missing';
  const columns = parts as ArrayLike<unknown>[];
  if (columns.length === 1) return observeSingle(seen, columns[0]!, rowCount);
  for (let row = 0; row < rowCount; row++) {
    const values = columns.map((column) => column[row]);
    if (values.some((v) => v === null || v === undefined)) return 'null';
    if (!seen.add(values.length === 1 ? hashValue(values[0]) : hashParts(values))) return 'repeat';
  }
  return undefined;
}

/** The one-column case without an array a row: most candidates are single columns. */
function observeSingle(seen: HashSet, column: ArrayLike<unknown>, rowCount: number): KeyFailure['reason'] | undefined {
  for (let row = 0; row < rowCount; row++) {
    const value = column[row];
    if (value === null || value === undefined) return 'null';
    if (!seen.add(hashValue(value))) return 'repeat';
  }
  return undefined;
}
