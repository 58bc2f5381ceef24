import { deltaUnpack32 } from './delta-binary.js';
import { formatBytes, MAX_PAGE_BYTES } from './parquet-limits.js';
import { readVarInt } from './rle-runs.js';
import { UnreadableError } from './table-file.js';

/**
 * DELTA_BINARY_PACKED streams (also the lengths inside the two DELTA_*_BYTE_ARRAY encodings).
 * hyparquet trusts their block header: a negative or zero block size makes its INT32 decoder
 * step backwards through the page forever. The walk reads headers and bit widths (per block,
 * not per value) the way that decoder consumes them.
 *
 * A 32-bit stream that hyparquet (not delta-binary.ts) will decode is `narrow`: its first value
 * must fit a 32-bit varint and each block's minimum delta five bytes, as hyparquet 1.33 reads
 * them (see delta-binary.ts); wider ones are refused, not misread.
 */

/** Where the stream ends for hyparquet, or undefined when it runs off the bytes (hyparquet reports that). */
export function walkDeltaStream(bytes: Uint8Array, from: number, count: number, what: string, narrow = false): number | undefined {
  const cursor = { at: from };
  const [blockSize, miniblocks] = [readVarInt(bytes, cursor), readVarInt(bytes, cursor)];
  if (readVarInt(bytes, cursor) === undefined || blockSize === undefined || miniblocks === undefined) return undefined;
  const first = varIntSpan(bytes, cursor);
  if (first === undefined) return undefined;
  if (narrow && (first.bytes > 5 || first.high)) throw misread(what, 'its first value has more than 32 bits');
  // The format's rule: blocks of a multiple of 128 values, miniblocks of a multiple of 32.
  if (!(blockSize > 0 && blockSize % 128 === 0 && miniblocks > 0 && blockSize % miniblocks === 0 && (blockSize / miniblocks) % 32 === 0)) {
    throw new UnreadableError(`${what} declare blocks of ${blockSize} values in ${miniblocks} miniblocks, which the delta encoding does not allow`);
  }
  const perMiniblock = blockSize / miniblocks;
  for (let produced = 1; produced < count;) {
    const minDelta = varIntSpan(bytes, cursor);
    if (minDelta === undefined) return undefined;
    if (narrow && minDelta.bytes > 5) throw misread(what, `the minimum delta of the block at value ${produced} takes ${minDelta.bytes} bytes`);
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

/** A varint's length in bytes, and whether it has bits from 32 on (its fifth byte above its low four); undefined past the end. */
function varIntSpan(bytes: Uint8Array, cursor: { at: number }): { bytes: number; high: boolean } | undefined {
  const start = cursor.at;
  while (cursor.at < bytes.length) {
    if (!(bytes[cursor.at++]! & 0x80)) return { bytes: cursor.at - start, high: cursor.at - start === 5 && (bytes[start + 4]! & 0x70) !== 0 };
  }
  return undefined;
}

function misread(what: string, detail: string): UnreadableError {
  return new UnreadableError(`${what}: ${detail}, which hyparquet 1.33 misreads in a 32-bit delta stream (the page is refused rather than read wrong)`);
}

/**
 * DELTA_BYTE_ARRAY: prefix lengths, then suffix lengths, then suffixes. hyparquet allocates
 * prefix + suffix bytes per value and copies the prefix from the value before, so forged
 * prefixes make gigabytes from a few bytes. The lengths are decoded (only for this encoding)
 * and held to the format: a prefix no longer than the value before, and a page's values
 * together within the page limit.
 */
export function checkDeltaByteArray(page: Uint8Array, at: number, count: number): void {
  // hyparquet decodes these pages: their lengths must read alike in both decoders.
  const suffixes = walkDeltaStream(page, at, count, 'delta prefix lengths', true);
  if (suffixes === undefined || walkDeltaStream(page, suffixes, count, 'delta suffix lengths', true) === undefined) return;
  const prefix = new Int32Array(count);
  const suffix = new Int32Array(count);
  deltaUnpack32(page, deltaUnpack32(page, at, count, prefix), count, suffix);
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
