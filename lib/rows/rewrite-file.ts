import type { DataFormat } from '../contract/model.js';
import type { ByteSource } from '../formats/byte-source.js';
import { sourceCompression } from '../formats/compression-magic.js';
import { DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES } from '../formats/line-scanner.js';
import { planParquet } from './parquet-plan.js';
import { rewriteParquet } from './parquet-rewrite.js';
import { chunkSettings } from './parquet-settings.js';
import { readSourceFooter } from './parquet-source.js';
import { PART_BYTES } from './part-chunks.js';
import { unsupportedFile } from './row-errors.js';
import { rewriteText } from './text-rewrite.js';
import { checkRowNumbers, rowsPastEnd } from './withheld-rows.js';

export interface RewriteOptions {
  /** The file's path, for messages. */
  readonly path?: string;
  /** Bytes per chunk handed out, all but the last (default 8 MiB: S3 multipart parts). */
  readonly partBytes?: number;
  /** CSV and JSON Lines: the checker's record limit and read size (defaults: the checker's). */
  readonly maxRecordBytes?: number;
  readonly chunkBytes?: number;
}

/** A rewritten file: its bytes, to be taken once, and what a reader of the report should know. */
export interface RewrittenFile {
  /** Chunks of `partBytes` but the last, ready for a multipart upload. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** E.g. `column "x": written with SNAPPY, not ZSTD: this Node has no Zstandard compressor`. */
  readonly notes: readonly string[];
}

/**
 * The file without the withheld rows (0-based data rows as the checker numbers them, ascending):
 * Parquet rewritten with the same schema, column order, codecs and key-value metadata; CSV and
 * JSON Lines as the same bytes minus those rows' lines, gzip-compressed again if the source was.
 * What the rewrite cannot carry exactly (a Parquet type it cannot write back bit for bit) is
 * refused here, before any chunk, as a GateError 'unsupported'; row numbers that do not fit the
 * file are a GateError 'bad_arguments'.
 */
export async function rewriteWithout(format: DataFormat, source: ByteSource, rows: readonly number[], options: RewriteOptions = {}): Promise<RewrittenFile> {
  const path = options.path ?? 'the file';
  const partBytes = options.partBytes ?? PART_BYTES;
  checkRowNumbers(rows, path);
  if (format !== 'parquet') {
    // Only gzip is compressed again: withheld rows of a zstd file would be published as plain text under its name.
    if ((await sourceCompression(source)) === 'zstd') throw unsupportedFile(path, undefined, 'zstd-compressed text', 'the rewrite compresses again with gzip only');
    const text = { path, maxRecordBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES, chunkBytes: options.chunkBytes ?? DEFAULT_CHUNK_BYTES, partBytes };
    return { chunks: rewriteText(format, source, rows, text), notes: [] };
  }
  const plan = planParquet(await readSourceFooter(source), path);
  const last = rows.at(-1);
  if (last !== undefined && last >= plan.rowCount) throw rowsPastEnd(path, rows, rows.findIndex((row) => row >= plan.rowCount), plan.rowCount);
  const { settings, notes } = chunkSettings(plan);
  return { chunks: rewriteParquet(source, plan, settings, rows, partBytes), notes };
}
