import { UnreadableError } from './table-file.js';

/**
 * DELTA_BINARY_PACKED for 32-bit values (INT32 columns, and the lengths of the DELTA_*_BYTE_ARRAY
 * encodings), decoded modulo 2^32 as the format asks: writers compute the first value and the
 * deltas in wider arithmetic, so a header value or a miniblock can need more than 32 bits. DuckDB
 * writes a UINTEGER of 3e9 as the 64-bit number 3e9 (its zigzag has 33 bits), where hyparquet 1.33
 * (src/delta.js, deltaBinaryUnpackInt32) reads the first value with readZigZag, a 32-bit varint:
 * bit 32 of the zigzag is lost and every value of the page comes out 2^31 off. The fix proposed
 * upstream: read the first value as readZigZagInt33 already reads the minimum delta, and read
 * varints of more than five bytes whole (readVarInt's shift wraps at 32 and folds their high
 * bytes into the low bits). Kept here until hyparquet has it.
 */

/** Where a stream's header says it stands: its block shape and first value. */
interface StreamHeader {
  readonly perMiniblock: number;
  readonly miniblocks: number;
  readonly first: number;
}

/**
 * Decodes `count` values of the stream at `at` into `out` (their 32-bit patterns: a UINT_32 view
 * of `out` gives the unsigned values); returns where the stream ends. Bit widths up to 64 are read,
 * their bits from 32 on vanishing modulo 2^32.
 */
export function deltaUnpack32(bytes: Uint8Array, at: number, count: number, out: Int32Array): number {
  const cursor = { at };
  const { perMiniblock, miniblocks, first } = streamHeader(bytes, cursor);
  let value = first;
  if (count > 0) out[0] = value;
  for (let produced = 1; produced < count;) {
    const minDelta = readZigZag32(bytes, cursor);
    const widths = cursor.at;
    let start = widths + miniblocks;
    // Unused miniblocks after the last value have no bytes, whatever width they declare.
    for (let i = 0; i < miniblocks && produced < count; i++) {
      const width = bytes[widths + i];
      const taking = Math.min(perMiniblock, count - produced);
      if (width === undefined || width > 64) throw new UnreadableError(`a delta stream's miniblock declares a bit width of ${width ?? 'nothing'}`);
      if (start + Math.ceil((taking * width) / 8) > bytes.length) throw new UnreadableError(`a delta stream runs past the end of its page at value ${produced}`);
      value = width === 0 ? addConstant(out, produced, taking, value, minDelta) : unpackMiniblock(bytes, start, width, out, produced, taking, value, minDelta);
      produced += taking;
      start += (perMiniblock * width) / 8;
    }
    cursor.at = start;
  }
  return cursor.at;
}

/** Values a stream's header declares; the count it was written with, not a promise about the page. */
export function deltaDeclaredCount(bytes: Uint8Array, at: number): number {
  const cursor = { at };
  readSmallVarInt(bytes, cursor, 'block size');
  readSmallVarInt(bytes, cursor, 'miniblock count');
  return readSmallVarInt(bytes, cursor, 'value count');
}

function streamHeader(bytes: Uint8Array, cursor: { at: number }): StreamHeader {
  const blockSize = readSmallVarInt(bytes, cursor, 'block size');
  const miniblocks = readSmallVarInt(bytes, cursor, 'miniblock count');
  readSmallVarInt(bytes, cursor, 'value count');
  if (!(blockSize > 0 && blockSize % 128 === 0 && miniblocks > 0 && blockSize % miniblocks === 0 && (blockSize / miniblocks) % 32 === 0)) {
    throw new UnreadableError(`a delta stream declares blocks of ${blockSize} values in ${miniblocks} miniblocks, which the delta encoding does not allow`);
  }
  return { perMiniblock: blockSize / miniblocks, miniblocks, first: readZigZag32(bytes, cursor) };
}

function addConstant(out: Int32Array, from: number, taking: number, value: number, delta: number): number {
  for (let j = 0; j < taking; j++) out[from + j] = value = (value + delta) | 0;
  return value;
}

/** `taking` values of a miniblock of `width`-bit residuals at byte `start`; returns the last. */
function unpackMiniblock(bytes: Uint8Array, start: number, width: number, out: Int32Array, from: number, taking: number, value: number, minDelta: number): number {
  const kept = Math.min(width, 32);
  const mask = kept === 32 ? -1 : (1 << kept) - 1;
  for (let j = 0, bit = 0; j < taking; j++, bit += width) {
    let byte = start + (bit >>> 3);
    let got = 8 - (bit & 7);
    let residual = bytes[byte]! >>> (bit & 7);
    // At most five bytes hold a value's low 32 bits; `got` stays under 32 as a shift.
    while (got < kept) {
      residual |= bytes[++byte]! << got;
      got += 8;
    }
    // Sums stay below 2^53 in doubles; `| 0` wraps them to 32 bits as the format's arithmetic does.
    out[from + j] = value = (value + minDelta + (residual & mask)) | 0;
  }
  return value;
}

/**
 * A zigzag varint's value modulo 2^32, whatever its length (up to the ten bytes of a 64-bit
 * one): the low 32 bits of the value need the low 33 of the zigzag, which the first five bytes
 * hold (35 bits, exact in a double). Later bytes only carry higher bits.
 */
export function readZigZag32(bytes: Uint8Array, cursor: { at: number }): number {
  let low = 0;
  for (let i = 0; ; i++) {
    const byte = bytes[cursor.at++];
    if (byte === undefined || i >= 10) throw new UnreadableError(`a delta stream's varint at byte ${cursor.at - 1} ${byte === undefined ? 'runs past the end of its page' : 'is longer than ten bytes'}`);
    if (i < 5) low += (byte & 0x7f) * 2 ** (7 * i);
    if (!(byte & 0x80)) break;
  }
  const zigzag = low % 2 ** 33;
  return (Math.floor(zigzag / 2) | 0) ^ -(zigzag % 2);
}

/** A header count, which must fit in 31 bits (block sizes and counts are small). */
function readSmallVarInt(bytes: Uint8Array, cursor: { at: number }, what: string): number {
  let value = 0;
  for (let i = 0; ; i++) {
    const byte = bytes[cursor.at++];
    if (byte === undefined) throw new UnreadableError(`a delta stream's ${what} runs past the end of its page`);
    value += (byte & 0x7f) * 2 ** (7 * i);
    if (!(byte & 0x80)) break;
  }
  if (value > 0x7fffffff) throw new UnreadableError(`a delta stream declares a ${what} of ${value}`);
  return value;
}
