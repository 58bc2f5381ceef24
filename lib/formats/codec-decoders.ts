import { brotliDecompressSync, constants, gunzipSync, inflateRawSync, type ZlibOptions } from 'node:zlib';
import type { CompressionCodec } from 'hyparquet';
import { compressors, decompressZstd } from 'hyparquet-compressors';
import { snappyUncompress } from 'hyparquet/src/snappy.js';
import { inflatedMore, inflatedSize } from './inflated-size.js';
import { decodeLz4, decodeLz4Raw } from './lz4-block.js';
import { UnreadableError } from './table-file.js';
import { zstdBlockSizes } from './zstd-blocks.js';

export type Decode = (input: Uint8Array, outputLength: number) => Uint8Array;

/**
 * A decoder per codec whose output is exactly the declared length or an error: each stops as soon
 * as its output would pass that length (an InflatedSizeError, see inflated-size.ts), and refuses
 * a page that makes fewer bytes. Where the stream itself states its length (Snappy, a Zstandard
 * frame) the two must agree, so a forged page size fails before anything is sized by it.
 */
export const DECODERS: Partial<Record<CompressionCodec, Decode>> = {
  SNAPPY: snappy,
  // zlib's own inflaters, which stop at maxOutputLength; hyparquet-compressors' write on into nothing.
  GZIP: (input, length) => zlibExact(input, length, input[0] === 0x1f && input[1] === 0x8b ? gunzipSync : inflateRawSync),
  BROTLI: (input, length) => zlibExact(input, length, brotliDecompressSync),
  ZSTD: zstd,
  LZ4: decodeLz4,
  LZ4_RAW: decodeLz4Raw,
};

type ZlibSync = (input: Uint8Array, options: ZlibOptions) => Buffer;

/**
 * A zlib inflater held to the declared length: it throws ERR_BUFFER_TOO_LARGE a chunk past it.
 * One chunk of the declared length and a byte holds a page whole (zlib would join 16 KiB chunks
 * into a second copy), and a page that would go on fills it and stops.
 */
function zlibExact(input: Uint8Array, length: number, inflate: ZlibSync): Uint8Array {
  let output: Buffer;
  try {
    output = inflate(input, { maxOutputLength: Math.max(1, length), chunkSize: Math.max(constants.Z_MIN_CHUNK, length + 1) });
  } catch (error) {
    if (error instanceof Error && (error as Error & { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw inflatedMore(length);
    throw error;
  }
  inflatedSize(length, output.length);
  return output;
}

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

/**
 * Without an output buffer fzstd allocates what the frame header claims, up to 2 GiB; with one it
 * writes on past its end into nothing. So the block headers are walked first (zstd-blocks.ts):
 * stored and RLE blocks say what they make, compressed ones at most 128 KiB, and a page whose
 * blocks must make more, or cannot make enough, is refused before anything is inflated.
 */
function zstd(input: Uint8Array, outputLength: number): Uint8Array {
  const sizes = zstdBlockSizes(input, outputLength);
  if (sizes.exact > outputLength) throw inflatedMore(outputLength);
  if (sizes.exact + sizes.compressedMost < outputLength) inflatedSize(outputLength, sizes.exact + sizes.compressedMost);
  return decompressZstd(input, new ZstdOutput(outputLength));
}
