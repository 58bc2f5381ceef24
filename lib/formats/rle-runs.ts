import { UnreadableError } from './table-file.js';

/**
 * Checks the run headers of an RLE/bit-packed hybrid stream (definition levels, dictionary
 * indices, RLE booleans) before hyparquet decodes it. hyparquet writes every value of an RLE run
 * into a JS array, past the array's end if the run says so: one forged varint of a few bytes
 * would make it write a billion values. Run headers are read, not values, except that 1-bit
 * streams are counted (a byte per 8 values) for the number of defined values.
 *
 * The bounds come from what the bytes can hold and what the decoder spends, not from what some
 * writer does: writers pad a last bit-packed run by anything from 7 values (arrow) to 255
 * (DuckDB), and the format lets them.
 * - A bit-packed run of g groups holds g × width bytes: it cannot claim more than the bytes left.
 *   hyparquet stops storing values at the end of its output, so padding costs only those bytes.
 * - A run that needs no bytes per value (RLE, or bit-packed at width 0) is bounded by the page:
 *   it may run past the values left by at most the page's own count, so hyparquet's work and
 *   the array it fills stay within twice what the page header declares.
 */

/**
 * Walks runs until `expected` values are covered or the bytes end (a short stream is for
 * hyparquet to report). Throws when a run claims more than its bytes or its page can hold.
 * Returns how many of the expected values are 1 (meaningful for 1-bit streams: the defined
 * values of a page).
 */
export function checkRuns(bytes: Uint8Array, from: number, width: number, expected: number, what: string): number {
  const cursor = { at: from };
  let ones = 0;
  for (let seen = 0; seen < expected && cursor.at < bytes.length;) {
    const header = readVarInt(bytes, cursor);
    if (header === undefined) break;
    // Any count within bounds is small enough that hyparquet's 32-bit arithmetic gets the same one.
    const packed = (header & 1) === 1;
    const count = packed ? (header >>> 1) * 8 : header >>> 1;
    checkRun(bytes.length - cursor.at, packed ? width : 0, count, expected - seen, expected, what);
    const used = Math.min(count, expected - seen);
    if (width === 1) ones += packed ? countOnes(bytes, cursor.at, used) : bytes[cursor.at] === 1 ? used : 0;
    // Bytes hyparquet consumes: a bit-packed run reads at least its first byte, an RLE run its value.
    cursor.at += packed ? Math.max(1, (count / 8) * width) : (width + 7) >> 3;
    seen += count;
  }
  return ones;
}

/** Throws when a run needs more bytes than remain, or overruns its page by more than the page. */
function checkRun(bytesLeft: number, bitsPerValue: number, count: number, valuesLeft: number, pageValues: number, what: string): void {
  const bytesNeeded = (count / 8) * bitsPerValue;
  if (bytesNeeded > bytesLeft) {
    throw new UnreadableError(`${what} hold a bit-packed run of ${count} values that needs ${bytesNeeded} bytes where ${bytesLeft} remain in the page`);
  }
  if (bitsPerValue === 0 && count > valuesLeft + pageValues + 7) {
    throw new UnreadableError(`${what} hold a run of ${count} values where ${valuesLeft} remain in a page of ${pageValues}`);
  }
}

const ONES = Uint8Array.from({ length: 256 }, (_, byte) => byte.toString(2).replaceAll('0', '').length);

/** Set bits among the first `values` bits from `at` (a bit-packed run of width 1). */
function countOnes(bytes: Uint8Array, at: number, values: number): number {
  let ones = 0;
  const whole = values >> 3;
  for (let i = 0; i < whole; i++) ones += ONES[bytes[at + i] ?? 0]!;
  if (values & 7) ones += ONES[(bytes[at + whole] ?? 0) & ((1 << (values & 7)) - 1)]!;
  return ones;
}

/** hyparquet's readVarInt, wrapping at 32 bits as it does; undefined past the end. */
export function readVarInt(bytes: Uint8Array, cursor: { at: number }): number | undefined {
  let result = 0;
  for (let shift = 0; cursor.at < bytes.length; shift += 7) {
    const byte = bytes[cursor.at++]!;
    result |= (byte & 0x7f) << shift;
    if (!(byte & 0x80)) return result;
  }
  return undefined;
}
