/**
 * 53-bit hashes of key values, so uniqueness state is one float64 per row instead of a string in
 * a Map. Two independent 32-bit streams (FNV-1a and a multiply-xorshift) are folded into the 53
 * bits a double holds exactly. Equal hashes are only candidates: the values are compared later.
 */
const FLOAT = new Float64Array(1);
const WORDS = new Uint32Array(FLOAT.buffer);
const TWO_POW_21 = 2 ** 21;

const UTF8 = new TextEncoder();

/**
 * Hashes a string as its UTF-8 bytes, so a key decoded to a string and the same key hashed
 * straight from a file's bytes (hashByteRange) agree. ASCII needs no encoding step.
 */
export function hashString(text: string, seedA = 0x811c9dc5, seedB = 0x9747b28c): number {
  let a = seedA;
  let b = seedB;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return hashBytes(UTF8.encode(text), seedA, seedB);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return fold(a, b ^ text.length);
}

export function hashBytes(bytes: Uint8Array, seedA = 0x811c9dc5, seedB = 0x9747b28c): number {
  return hashByteRange(bytes, 0, bytes.length, seedA, seedB);
}

/**
 * Hashes bytes [start, end) of a buffer in place: a key column hashed from page data costs no
 * object per value.
 */
export function hashByteRange(bytes: Uint8Array, start: number, end: number, seedA = 0x811c9dc5, seedB = 0x9747b28c): number {
  let a = seedA;
  let b = seedB;
  for (let i = start; i < end; i++) {
    const code = bytes[i]!;
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return fold(a, b ^ (end - start));
}

export function hashNumber(value: number, seedA = 0x811c9dc5, seedB = 0x9747b28c): number {
  FLOAT[0] = value === 0 ? 0 : value; // -0 and 0 are the same key
  const low = WORDS[0]!;
  const high = WORDS[1]!;
  return fold(Math.imul(Math.imul(seedA ^ low, 0x01000193) ^ high, 0x01000193), Math.imul(Math.imul(seedB ^ high, 0x5bd1e995) ^ low, 0x5bd1e995) ^ 0x2f);
}

/** Hashes one key part of any checked representation. */
export function hashValue(value: unknown, seedA?: number, seedB?: number): number {
  if (typeof value === 'string') return hashString(value, seedA, seedB);
  if (typeof value === 'number') return hashNumber(value, seedA, seedB);
  if (typeof value === 'boolean') return hashNumber(value ? 1 : 0, seedA, seedB);
  // int64 arrives as bigint from Parquet and as number from text: one value, one hash.
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? hashNumber(Number(value), seedA, seedB) : hashString(`n${value}`, seedA, seedB);
  if (value instanceof Uint8Array) return hashBytes(value, seedA, seedB);
  return hashString(String(value), seedA, seedB);
}

/** Hashes a composite key: each part seeds the next, so (a, bc) and (ab, c) differ. */
export function hashParts(parts: readonly unknown[]): number {
  let hash = 0;
  for (const part of parts) {
    hash = hashValue(part, (hash / TWO_POW_21) >>> 0 ^ 0x811c9dc5, (hash % TWO_POW_21) ^ 0x9747b28c);
  }
  return hash;
}

function fold(a: number, b: number): number {
  const mixed = Math.imul(b ^ (b >>> 16), 0x85ebca6b);
  return (a >>> 0) * TWO_POW_21 + ((mixed ^ (mixed >>> 13)) & (TWO_POW_21 - 1));
}
