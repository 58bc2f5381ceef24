import { deltaBinaryUnpack } from 'hyparquet/src/delta.js';
import { formatBytes, MAX_PAGE_BYTES } from './parquet-limits.js';
import { readVarInt } from './rle-runs.js';
import { UnreadableError } from './table-file.js';

/**
 * DELTA_BINARY_PACKED streams (also the lengths inside the two DELTA_*_BYTE_ARRAY encodings).
 * hyparquet trusts their block header: a negative or zero block size makes its INT32 decoder
 * step backwards through the page forever. The walk reads headers and bit widths (per block,
 * not per value) the way that decoder consumes them.
 */

/** Where the stream ends for hyparquet, or undefined when it runs off the bytes (hyparquet reports that). */
export function walkDeltaStream(bytes: Uint8Array, from: number, count: number, what: string): number | undefined {
  const cursor = { at: from };
  const [blockSize, miniblocks] = [readVarInt(bytes, cursor), readVarInt(bytes, cursor)];
  if (readVarInt(bytes, cursor) === undefined || readVarInt(bytes, cursor) === undefined || blockSize === undefined || miniblocks === undefined) return undefined;
  // The format's rule: blocks of a multiple of 128 values, miniblocks of a multiple of 32.
  if (!(blockSize > 0 && blockSize % 128 === 0 && miniblocks > 0 && blockSize % miniblocks === 0 && (blockSize / miniblocks) % 32 === 0)) {
    throw new UnreadableError(`${what} declare blocks of ${blockSize} values in ${miniblocks} miniblocks, which the delta encoding does not allow`);
  }
  const perMiniblock = blockSize / miniblocks;
  for (let produced = 1; produced < count;) {
    if (readVarInt(bytes, cursor) === undefined) return undefined;
    const widths = cursor.at;
    let end = widths + miniblocks;
    // Unused miniblocks after the last value are not consumed, as in hyparquet.
    for (let i = 0; i < miniblocks && produced < count; i++) {
      const width = bytes[widths + i];
      if (width === undefined) return undefined;
      if (width > 64) throw new UnreadableError(`${what} claim a bit width of ${width}; at most 64 is possible`);
      end += (perMiniblock * width) / 8;
      produced += Math.min(perMiniblock, count - produced);
    }
    cursor.at = end;
    if (cursor.at > bytes.length) return undefined;
  }
  return cursor.at;
}

/**
 * DELTA_BYTE_ARRAY: prefix lengths, then suffix lengths, then suffixes. hyparquet allocates
 * prefix + suffix bytes per value and copies the prefix from the value before, so forged
 * prefixes make gigabytes from a few bytes. The lengths are decoded (only for this encoding)
 * and held to the format: a prefix no longer than the value before, and a page's values
 * together within the page limit.
 */
export function checkDeltaByteArray(page: Uint8Array, at: number, count: number): void {
  const suffixes = walkDeltaStream(page, at, count, 'delta prefix lengths');
  if (suffixes === undefined || walkDeltaStream(page, suffixes, count, 'delta suffix lengths') === undefined) return;
  const prefix = new Int32Array(count);
  const suffix = new Int32Array(count);
  const reader = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: at };
  deltaBinaryUnpack(reader, count, prefix);
  deltaBinaryUnpack(reader, count, suffix);
  let previous = 0;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const [p, s] = [prefix[i]!, suffix[i]!];
    if (p < 0 || s < 0 || p > previous) throw new UnreadableError(`value ${i} of a DELTA_BYTE_ARRAY page reuses ${p} bytes of a ${previous}-byte value before it and adds ${s}`);
    previous = p + s;
    total += previous;
  }
  if (total > MAX_PAGE_BYTES) throw new UnreadableError(`a DELTA_BYTE_ARRAY page decodes to ${formatBytes(total)}, over the ${formatBytes(MAX_PAGE_BYTES)} page limit`);
}
