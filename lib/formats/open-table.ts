import type { DataFormat } from '../contract/model.js';
import type { ByteSource } from './byte-source.js';
import { openCsvFile } from './csv-file.js';
import { openJsonLinesFile } from './jsonl-file.js';
import { openParquetFile } from './parquet-file.js';
import type { TableFile } from './table-file.js';

export function openTable(format: DataFormat, source: ByteSource): TableFile {
  switch (format) {
    case 'parquet': return openParquetFile(source);
    case 'csv': return openCsvFile(source);
    case 'jsonl': return openJsonLinesFile(source);
  }
}

/** File name endings of each format, for picking the data files out of a directory. */
export const FORMAT_EXTENSIONS: Record<DataFormat, readonly string[]> = {
  parquet: ['.parquet', '.parq', '.pq'],
  csv: ['.csv'],
  jsonl: ['.jsonl', '.ndjson', '.json'],
};
