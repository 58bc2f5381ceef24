import { hashParts, hashValue } from '../checks/key-hash.js';

interface TrackedKey {
  readonly columns: readonly string[];
  alive: boolean;
  seen: Set<number>;
}

/**
 * Finds the column sets that are unique and never null within every partition, as the engine's
 * `grain` is checked: per partition, across its files, never across partitions. A key drops out
 * at its first null or repeat, so only keys still in the running hold memory: one 53-bit hash a
 * row (the engine's own hash). A hash collision can only drop a good key, never keep a bad one.
 */
export class KeyTracker {
  private readonly keys: TrackedKey[] = [];

  add(columns: readonly string[]): void {
    const id = columns.join('\u0000');
    if (!this.keys.some((k) => k.columns.join('\u0000') === id)) this.keys.push({ columns, alive: true, seen: new Set() });
  }

  observe(batch: ReadonlyMap<string, ArrayLike<unknown>>, rowCount: number): void {
    for (const key of this.keys) {
      if (key.alive) observeKey(key, key.columns.map((name) => batch.get(name)), rowCount);
    }
  }

  /** Uniqueness is per partition: the next one starts afresh. */
  endPartition(): void {
    for (const key of this.keys) key.seen = new Set();
  }

  unique(): (readonly string[])[] {
    return this.keys.filter((k) => k.alive).map((k) => k.columns);
  }
}

function observeKey(key: TrackedKey, parts: (ArrayLike<unknown> | undefined)[], rowCount: number): void {
  // A file without the column: it cannot be the grain.
  if (parts.some((part) => part === undefined)) return drop(key);
  const columns = parts as ArrayLike<unknown>[];
  for (let row = 0; row < rowCount; row++) {
    const values = columns.map((column) => column[row]);
    if (values.some((v) => v === null || v === undefined)) return drop(key);
    const hash = values.length === 1 ? hashValue(values[0]) : hashParts(values);
    if (key.seen.has(hash)) return drop(key);
    key.seen.add(hash);
  }
}

function drop(key: TrackedKey): void {
  key.alive = false;
  key.seen = new Set();
}
