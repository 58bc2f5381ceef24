import { ESCAPED_STRING, HINTED_KEY, type FlatObject } from './json-object-bytes.js';
import type { DuplicateKey } from './json-duplicate-keys.js';

const COLON = 0x3a;

/**
 * Which requested column each member of a line is, from its key's bytes, and every key a batch
 * has seen (for the extra-column check). Lines of one file mostly spell the same keys in the
 * same order, so the key at each position is remembered as a hint the tokenizer compares byte
 * for byte: no string, and no tokenizing, per member once a file's keys are known.
 */
export class JsonKeys {
  /** Every key seen since the last `takeSeen`. */
  private seen = new Set<string>();
  private batch = 0;
  private readonly cached: (string | undefined)[] = [];
  private readonly cachedSlots: number[] = [];
  private readonly cachedBatch: number[] = [];
  /** Per member position, the bytes `"key":` of the key last read there (FlatObject.read takes them). */
  readonly hints: (Uint8Array | undefined)[] = [];
  /** Hints [0, distinct) are all set and all different keys: a line whose members all match them gives no key twice. */
  private distinct = 0;
  private readonly lineKeys = new Set<string>();

  constructor(private readonly slots: ReadonlyMap<string, number>) {}

  /** The column slot of member `m`'s key (-1 for a key not asked for). */
  slotOf(b: Buffer, object: FlatObject, m: number, ascii: boolean): number {
    if (object.keyKinds[m] === HINTED_KEY) {
      if (this.cachedBatch[m] !== this.batch) this.remember(this.cached[m]!, m);
      return this.cachedSlots[m]!;
    }
    const start = object.keyStarts[m]! + 1;
    const end = object.keyEnds[m]! - 1;
    const escaped = object.keyKinds[m] === ESCAPED_STRING;
    const key = keyText(b, object, m, ascii);
    const slot = this.slots.get(key) ?? -1;
    this.seen.add(key);
    if (ascii && !escaped) {
      this.cached[m] = key;
      this.cachedSlots[m] = slot;
      this.cachedBatch[m] = this.batch;
      // The next line's key here is likely the same, its colon right after: `"key":`.
      this.hints[m] = b[end + 1] === COLON ? Uint8Array.from(b.subarray(start - 1, end + 2)) : undefined;
      this.distinct = Math.min(this.distinct, m);
    }
    return slot;
  }

  /**
   * A key the line's object gives twice, before slotOf sees its members (an unreadable line's
   * keys are not the file's). Lines that match hints known to be different keys are passed by a
   * look at their members' kinds (see markDistinct).
   */
  duplicate(b: Buffer, object: FlatObject, ascii: boolean, lineStart: number): DuplicateKey | undefined {
    const n = object.count;
    if (n <= this.distinct && allHinted(object, n)) return undefined;
    const keys = this.lineKeys;
    keys.clear();
    for (let m = 0; m < n; m++) {
      const key = object.keyKinds[m] === HINTED_KEY ? this.cached[m]! : keyText(b, object, m, ascii);
      if (keys.has(key)) return { key, column: b.toString('utf8', lineStart, object.keyStarts[m]!).length + 1 };
      keys.add(key);
    }
    return undefined;
  }

  /**
   * After slotOf has seen the members of a line without a key twice: its hints are now this
   * line's keys, unless a key was escaped or the line is not ASCII, and so all different.
   */
  markDistinct(object: FlatObject, ascii: boolean): void {
    const n = object.count;
    let set = 0;
    while (set < n && this.hints[set] !== undefined && object.keyKinds[set] !== ESCAPED_STRING) set++;
    if (ascii && set === n) this.distinct = Math.max(this.distinct, n);
  }

  /** A key of a line JSON.parse read. */
  add(key: string): void {
    this.seen.add(key);
  }

  /** The keys seen in this batch; the next batch starts with none. */
  takeSeen(): Set<string> {
    const seen = this.seen;
    this.seen = new Set();
    this.batch++;
    return seen;
  }

  private remember(key: string, m: number): void {
    this.seen.add(key);
    this.cachedBatch[m] = this.batch;
  }
}

/** Member `m`'s key as a string (not a hinted one). */
function keyText(b: Buffer, object: FlatObject, m: number, ascii: boolean): string {
  const start = object.keyStarts[m]! + 1;
  const end = object.keyEnds[m]! - 1;
  return object.keyKinds[m] === ESCAPED_STRING ? (JSON.parse(b.toString('utf8', start - 1, end + 1)) as string) : b.toString(ascii ? 'latin1' : 'utf8', start, end);
}

function allHinted(object: FlatObject, n: number): boolean {
  for (let m = 0; m < n; m++) if (object.keyKinds[m] !== HINTED_KEY) return false;
  return true;
}
