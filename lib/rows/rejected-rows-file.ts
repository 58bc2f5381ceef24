import type { DataFormat } from '../contract/model.js';
import type { ByteSource } from '../formats/byte-source.js';
import { DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES } from '../formats/line-scanner.js';
import { rejectedParquet } from './rejected-parquet.js';
import { rejectedCsv, rejectedJsonl } from './rejected-text.js';
import { PART_BYTES } from './part-chunks.js';
import type { RewriteOptions, RewrittenFile } from './rewrite-file.js';
import { checkReasons } from './row-reasons.js';
import { checkRowNumbers, type WithheldFile } from './withheld-rows.js';

export interface RejectedSource {
  readonly file: WithheldFile;
  readonly source: ByteSource;
}

/**
 * rejected-rows.<format>: the withheld rows of all files, each led by `_file`, `_row`, `_rule`,
 * `_column` and `_message` (several reasons joined with "; "), then the row as the producer
 * wrote it: Parquet columns with the source's types (or `_record` JSON text when the files'
 * schemas differ), the CSV record's bytes, the JSON line itself. Files are read only up to
 * their last withheld row.
 */
export async function rejectedRowsFile(format: DataFormat, files: readonly RejectedSource[], options: Omit<RewriteOptions, 'path'> = {}): Promise<RewrittenFile> {
  for (const { file } of files) {
    checkRowNumbers(file.rows, file.path);
    checkReasons(file);
  }
  const partBytes = options.partBytes ?? PART_BYTES;
  if (format === 'parquet') return rejectedParquet(files, partBytes);
  const text = { maxRecordBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES, chunkBytes: options.chunkBytes ?? DEFAULT_CHUNK_BYTES, partBytes };
  return format === 'csv' ? rejectedCsv(files, text) : rejectedJsonl(files, text);
}
