import { asSafeNumber } from './sample-value.js';

/**
 * 53-bit hashes of key values, so uniqueness state is one float64 per row instead of a string in
 * a Map. Two independent 32-bit streams (multiply-rotate rounds over 4-byte words, as MurmurHash3
 * does, with different constants) are folded into the 53 bits a double holds exactly. Equal
 * hashes are only candidates: the values are compared later.
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
  let i = 0;
  for (; i + 4 <= text.length; i += 4) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = text.charCodeAt(i + 2);
    const c3 = text.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) >= 0x80) return hashBytes(UTF8.encode(text), seedA, seedB);
    const word = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
    a = roundA(a, word);
    b = roundB(b, word);
  }
  let tail = 0;
  for (let shift = 0; i < text.length; i++, shift += 8) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return hashBytes(UTF8.encode(text), seedA, seedB);
    tail |= code << shift;
  }
  return finish(a, b, tail, text.length);
}

export function hashBytes(bytes: Uint8Array, seedA = 0x811c9dc5, seedB = 0x9747b28c): number {
  return hashByteRange(bytes, 0, bytes.length, seedA, seedB);
}

/**
 * Hashes bytes [start, end) of a buffer in place, four at a time: a key column hashed from page
 * data costs no object per value.
 */
export function hashByteRange(bytes: Uint8Array, start: number, end: number, seedA = 0x811c9dc5, seedB = 0x9747b28c): number {
  let a = seedA;
  let b = seedB;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    const word = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    a = roundA(a, word);
    b = roundB(b, word);
  }
  let tail = 0;
  for (let shift = 0; i < end; i++, shift += 8) tail |= bytes[i]! << shift;
  return finish(a, b, tail, end - start);
}

/**
 * The hash drop tags are named by (see gate/read-drop.ts), byte for byte the first one key
 * hashing used. Frozen: decision records in buckets are keyed by it, so a deploy must not rename
 * a drop the gate already decided.
 */
export function hashTag(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return fold(a, b ^ text.length);
}

function roundA(hash: number, word: number): number {
  const k = Math.imul(word, 0xcc9e2d51);
  const mixed = hash ^ Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  return (Math.imul((mixed << 13) | (mixed >>> 19), 5) + 0xe6546b64) | 0;
}

function roundB(hash: number, word: number): number {
  const k = Math.imul(word, 0x85ebca77);
  const mixed = hash ^ Math.imul((k << 17) | (k >>> 15), 0xc2b2ae3d);
  return (Math.imul((mixed << 11) | (mixed >>> 21), 9) + 0x27d4eb2f) | 0;
}

/** The last 0-3 bytes as one more round (the length keeps "" and "\0" apart), then avalanche. */
function finish(a: number, b: number, tail: number, length: number): number {
  return fold(avalanche(roundA(a, tail) ^ length), avalanche(roundB(b, tail) ^ length));
}

function avalanche(hash: number): number {
  let h = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
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
  if (typeof value === 'bigint') {
    const safe = asSafeNumber(value);
    return typeof safe === 'number' ? hashNumber(safe, seedA, seedB) : hashString(`n${value}`, seedA, seedB);
  }
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
