import type { CompressionCodec } from 'hyparquet';

/**
 * Limits the Parquet reader holds a file to before it trusts the file's own numbers. A file is
 * hostile input: its footer and page headers declare lengths and counts that the decoder would
 * otherwise allocate by, so each limit sits well above what writers produce and well below what
 * would exhaust a reader's memory (a reader gets about 512 MB).
 */

const MiB = 2 ** 20;

/** Largest page we decompress: writers default to 1 MiB pages, and 256 MiB is room for any sane one. */
export const MAX_PAGE_BYTES = 256 * MiB;

/**
 * The most a codec can expand its input, from the format: a Snappy copy element turns 3 bytes into
 * at most 64; LZ4 gains at most 255 bytes a byte; deflate at most 1032x; a Zstandard block at most
 * 128 KiB from 4 bytes. Brotli has no useful bound and gets only the page limit.
 */
export const MAX_EXPANSION: Partial<Record<CompressionCodec, number>> = {
  SNAPPY: 32,
  LZ4: 256,
  LZ4_RAW: 256,
  GZIP: 1_100,
  ZSTD: 33_000,
};

/** Below this a declared page size is harmless whatever the ratio; tiny pages have odd ratios. */
export const EXPANSION_FLOOR_BYTES = 64 * 1024;

/** Footers beyond this are not read: the largest real ones (thousands of columns) are a few MiB. */
export const MAX_FOOTER_BYTES = 16 * MiB;

/**
 * Values (fields, list items) a footer may hold. hyparquet parses a footer into objects first, up
 * to ~200 bytes of heap per value for a forged one; a million is ~40,000 column chunks and stays
 * near 200 MB even when forged.
 */
export const MAX_FOOTER_VALUES = 1_000_000;

/** Thrift nesting in a footer: the real schema nests structs 5 deep; parsing recurses per level. */
export const MAX_FOOTER_NESTING = 64;

/**
 * Schema depth: hyparquet builds the schema tree recursively, copying the path at every level, so
 * cost grows with the square of the depth. Real schemas nest a handful of levels.
 */
export const MAX_SCHEMA_DEPTH = 100;

/**
 * Rows in one row group. pyarrow's old default (64 Mi rows) is the largest any mainstream writer
 * makes; a group is decoded whole, at 8 bytes or more a value, so a larger one could not be read
 * within a reader's memory anyway, and a forged count would size allocations.
 */
export const MAX_GROUP_ROWS = 64 * MiB;

export function formatBytes(bytes: number): string {
  return bytes >= MiB ? `${+(bytes / MiB).toFixed(1)} MiB` : `${bytes} bytes`;
}
