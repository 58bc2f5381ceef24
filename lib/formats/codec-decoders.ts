import { brotliDecompressSync } from 'node:zlib';
import type { CompressionCodec } from 'hyparquet';
import { compressors, decompressGzip, decompressLz4, decompressLz4Raw, decompressZstd } from 'hyparquet-compressors';
import { snappyUncompress } from 'hyparquet/src/snappy.js';
import { UnreadableError } from './table-file.js';

export type Decode = (input: Uint8Array, outputLength: number) => Uint8Array;

/**
 * A decoder per codec whose output can never exceed the declared length: each writes into (or
 * stops at) a buffer of that length. Where the stream itself states its length (Snappy, a
 * Zstandard frame) the two must agree, so a forged page size fails before anything is sized by it.
 */
export const DECODERS: Partial<Record<CompressionCodec, Decode>> = {
  SNAPPY: snappy,
  GZIP: decompressGzip,
  // hyparquet-compressors' Brotli grows its output past the declared size; zlib's stops at it.
  BROTLI: (input, length) => brotliDecompressSync(input, { maxOutputLength: Math.max(1, length) }),
  ZSTD: zstd,
  LZ4: decompressLz4,
  LZ4_RAW: decompressLz4Raw,
};

/**
 * The WebAssembly Snappy decoder's memory grows to its largest input and output and never shrinks:
 * one 90 MB page (DuckDB writes a row group as one page) would keep 110 MB for the whole run.
 * Larger pages go to hyparquet's JavaScript decoder, whose output is freed with the page.
 */
const WASM_SNAPPY_BYTES = 4 * 2 ** 20;

function snappy(input: Uint8Array, outputLength: number): Uint8Array {
  let length = 0;
  for (let i = 0, scale = 1; i < 5 && i < input.length; i++, scale *= 128) {
    length += (input[i]! & 0x7f) * scale;
    if (!(input[i]! & 0x80)) break;
  }
  if (length !== outputLength) throw new UnreadableError(`Snappy data declares ${length} bytes but its page header says ${outputLength}`);
  if (outputLength <= WASM_SNAPPY_BYTES) return compressors.SNAPPY!(input, outputLength);
  const output = new Uint8Array(outputLength);
  snappyUncompress(input, output);
  return output;
}

/**
 * fzstd compares its output buffer with 1 (`w == 1`), which turns a plain Uint8Array into a
 * string of all its bytes; this one converts to 0 instead.
 */
class ZstdOutput extends Uint8Array {
  [Symbol.toPrimitive](): number {
    return 0;
  }
}

/** Without an output buffer fzstd allocates what the frame header claims, up to 2 GiB. */
function zstd(input: Uint8Array, outputLength: number): Uint8Array {
  const declared = zstdContentSize(input);
  if (declared !== undefined && declared !== outputLength) {
    throw new UnreadableError(`Zstandard data declares ${declared} bytes but its page header says ${outputLength}`);
  }
  return decompressZstd(input, new ZstdOutput(outputLength));
}

/** The content size a Zstandard frame header states, if it states one (RFC 8878, 3.1.1.1). */
function zstdContentSize(input: Uint8Array): number | undefined {
  if (input.length < 6 || input[0] !== 0x28 || input[1] !== 0xb5 || input[2] !== 0x2f || input[3] !== 0xfd) return undefined;
  const flags = input[4]!;
  const single = (flags >> 5) & 1;
  const sizeBytes = flags >> 6 ? 1 << (flags >> 6) : single;
  if (!sizeBytes) return undefined;
  const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][flags & 3]!;
  let size = 0;
  for (let i = sizeBytes - 1; i >= 0; i--) size = size * 256 + (input[at + i] ?? 0);
  return sizeBytes === 2 ? size + 256 : size;
}
