import { inflatedMore } from './inflated-size.js';
import { UnreadableError } from './table-file.js';

const FRAME_MAGIC = 0xfd2fb528;
/** RFC 8878 3.1.1.2: no block regenerates more than this. */
const MAX_BLOCK = 128 * 1024;

/** What a Zstandard page's blocks make, from their headers alone. */
export interface ZstdSizes {
  /** Bytes that stored and RLE blocks make, and frames that state their content size. */
  readonly exact: number;
  /** The most the other compressed blocks can make together. */
  readonly compressedMost: number;
}

/**
 * Walks the frames and block headers of a Zstandard page (RFC 8878 3.1) without inflating it,
 * stopping as soon as what they are known to make passes `limit`: an RLE block of 128 KiB is
 * 4 bytes, so a page of a few KiB can hold 256 MiB, which this finds in microseconds.
 */
export function zstdBlockSizes(input: Uint8Array, limit: number): ZstdSizes {
  let exact = 0;
  let compressedMost = 0;
  for (let at = 0; at < input.length;) {
    const magic = u32(input, at);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      at += 8 + u32(input, at + 4);
      continue;
    }
    if (magic !== FRAME_MAGIC) throw corrupt(`bytes at ${at} start no frame`);
    const frame = frameHeader(input, at);
    let made = 0;
    let most = 0;
    for (let last = false, block = frame.blocksAt; !last; ) {
      if (block + 3 > input.length) throw corrupt('it ends inside a block header');
      const header = input[block]! | (input[block + 1]! << 8) | (input[block + 2]! << 16);
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      last = (header & 1) === 1;
      if (type === 3) throw corrupt('a block of the reserved type');
      if (type === 2) most += Math.min(MAX_BLOCK, frame.window);
      else made += size;
      if (frame.contentSize === undefined ? exact + made > limit : made > frame.contentSize) throw inflatedMore(limit);
      block += 3 + (type === 1 ? 1 : size);
      at = block;
    }
    if (frame.checksum) at += 4;
    if (frame.contentSize === undefined) {
      exact += made;
      compressedMost += most;
    } else exact += frame.contentSize;
    if (exact > limit) throw inflatedMore(limit);
  }
  return { exact, compressedMost };
}

interface Frame {
  readonly blocksAt: number;
  readonly window: number;
  readonly contentSize: number | undefined;
  readonly checksum: boolean;
}

/** RFC 8878 3.1.1.1. */
function frameHeader(input: Uint8Array, at: number): Frame {
  if (at + 6 > input.length) throw corrupt('it ends inside a frame header');
  const descriptor = input[at + 4]!;
  const single = (descriptor >> 5) & 1;
  const dictionary = [0, 1, 2, 4][descriptor & 3]!;
  const sizeBytes = descriptor >> 6 ? 1 << (descriptor >> 6) : single;
  const sizeAt = at + 5 + (single ? 0 : 1) + dictionary;
  if (sizeAt + sizeBytes > input.length) throw corrupt('it ends inside a frame header');
  let contentSize: number | undefined;
  if (sizeBytes) {
    contentSize = 0;
    for (let i = sizeBytes - 1; i >= 0; i--) contentSize = contentSize * 256 + input[sizeAt + i]!;
    if (sizeBytes === 2) contentSize += 256;
  }
  let window = contentSize ?? 0;
  if (!single) {
    const base = 2 ** (10 + (input[at + 5]! >> 3));
    window = base + (base / 8) * (input[at + 5]! & 7);
  }
  return { blocksAt: sizeAt + sizeBytes, window, contentSize, checksum: ((descriptor >> 2) & 1) === 1 };
}

function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24)) >>> 0;
}

function corrupt(detail: string): UnreadableError {
  return new UnreadableError(`its Zstandard data is corrupt: ${detail}`);
}
