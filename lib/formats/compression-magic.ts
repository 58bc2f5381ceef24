import type { ByteSource } from './byte-source.js';

/** Compressions a producer's writer may apply to a text file, told apart by their first bytes. */
export type Compression = 'gzip' | 'zstd' | 'bzip2' | 'xz' | 'zip';

/** Enough leading bytes to tell every compression here apart. */
export const MAGIC_BYTES = 10;

const MAGIC: readonly { readonly compression: Compression; readonly bytes: readonly number[] }[] = [
  { compression: 'gzip', bytes: [0x1f, 0x8b] },
  { compression: 'zstd', bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { compression: 'xz', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { compression: 'zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
];

// "BZh", a block size digit, then the block magic (the digits of pi): ten bytes, because a CSV
// header may well start with "BZh".
const BZIP2_BLOCK = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59];

/**
 * The compression a file's first bytes announce, or undefined for plain text. None of these
 * prefixes can start UTF-8 text a CSV or JSON Lines writer emits, so sniffing cannot misread
 * a plain file, and it works wherever the file came from (a local path, an S3 key), whatever
 * its name.
 */
export function sniffCompression(head: Uint8Array): Compression | undefined {
  for (const { compression, bytes } of MAGIC) {
    if (bytes.every((byte, i) => head[i] === byte)) return compression;
  }
  const isBzip2 = head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68 && head[3]! >= 0x31 && head[3]! <= 0x39;
  return isBzip2 && BZIP2_BLOCK.every((byte, i) => head[4 + i] === byte) ? 'bzip2' : undefined;
}

/** The compression `source`'s first bytes announce (see sniffCompression). */
export async function sourceCompression(source: ByteSource): Promise<Compression | undefined> {
  return sniffCompression(new Uint8Array(await source.slice(0, Math.min(MAGIC_BYTES, source.byteLength))));
}
