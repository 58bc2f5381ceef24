import * as zlib from 'node:zlib';
import type { CompressionCodec } from 'hyparquet';
import type { ParquetWriter } from 'hyparquet-writer';

type Compressors = NonNullable<ConstructorParameters<typeof ParquetWriter>[0]['compressors']>;

/** Node 22.15 brought Zstandard to zlib; on older Nodes the name is absent. */
const zstdCompressSync = (zlib as { zstdCompressSync?: (input: Uint8Array) => Buffer }).zstdCompressSync;

/**
 * Compressors for hyparquet-writer (SNAPPY is its own). Brotli at quality 4, not zlib's default
 * 11: the level is not recorded in the file, and 11 compresses a page some 20 times slower.
 */
export const COMPRESSORS: Compressors = {
  GZIP: (input) => zlib.gzipSync(input),
  BROTLI: (input) => zlib.brotliCompressSync(input, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
  ...(zstdCompressSync ? { ZSTD: (input: Uint8Array) => zstdCompressSync(input) } : {}),
};

const WRITTEN_AS_IS: ReadonlySet<CompressionCodec> = new Set(['UNCOMPRESSED', 'SNAPPY', ...(Object.keys(COMPRESSORS) as CompressionCodec[])]);

/** The codec a chunk is written with: the source's where this process can compress it, else SNAPPY and why. */
export function writableCodec(codec: CompressionCodec): { readonly codec: CompressionCodec; readonly fallback?: string } {
  if (WRITTEN_AS_IS.has(codec)) return { codec };
  const why = codec === 'ZSTD' ? 'this Node has no Zstandard compressor (zlib.zstdCompressSync came with Node 22.15)' : `hyparquet-writer has no ${codec} compressor`;
  return { codec: 'SNAPPY', fallback: why };
}
