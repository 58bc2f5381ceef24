import { ESCAPED_STRING, HINTED_KEY, type FlatObject } from './json-object-bytes.js';

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
    const key = escaped ? (JSON.parse(b.toString('utf8', start - 1, end + 1)) as string) : b.toString(ascii ? 'latin1' : 'utf8', start, end);
    const slot = this.slots.get(key) ?? -1;
    this.seen.add(key);
    if (ascii && !escaped) {
      this.cached[m] = key;
      this.cachedSlots[m] = slot;
      this.cachedBatch[m] = this.batch;
      // The next line's key here is likely the same, its colon right after: `"key":`.
      this.hints[m] = b[end + 1] === COLON ? Uint8Array.from(b.subarray(start - 1, end + 2)) : undefined;
    }
    return slot;
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
