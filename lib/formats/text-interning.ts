const SLOTS = 256;
/** Longer values are seldom repeated (ids, notes): they are decoded without a look-up. */
const MAX_INTERNED = 32;

/**
 * The strings of a column's recent ASCII values by their bytes, so a column of few distinct
 * values (a status, a country) costs one string per distinct value instead of one per row.
 * Direct-mapped: a slot holds the last value whose bytes hashed to it; a miss decodes.
 */
export class InternedText {
  private readonly slots: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);

  /** The string of ASCII bytes [start, end). */
  text(b: Buffer, start: number, end: number): string {
    const length = end - start;
    if (length > MAX_INTERNED || length === 0) return b.toString('latin1', start, end);
    const slot = (length * 31 + b[start]! * 7 + b[end - 1]! * 3 + b[start + (length >> 1)]!) & (SLOTS - 1);
    const held = this.slots[slot];
    if (held !== undefined && held.length === length && sameText(held, b, start)) return held;
    const text = b.toString('latin1', start, end);
    this.slots[slot] = text;
    return text;
  }
}

function sameText(text: string, b: Buffer, start: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== b[start + i]) return false;
  return true;
}
