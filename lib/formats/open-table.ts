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
