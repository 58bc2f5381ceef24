import type { DataFormat } from '../contract/model.js';
import type { ByteSource } from './byte-source.js';
import { openCsvFile } from './csv-file.js';
import { openJsonLinesFile } from './jsonl-file.js';
import type { ColumnBatch, TableFile } from './table-file.js';

export function openTable(format: DataFormat, source: ByteSource): TableFile {
  switch (format) {
    case 'parquet': return lazyParquet(source);
    case 'csv': return openCsvFile(source);
    case 'jsonl': return openJsonLinesFile(source);
  }
}

/**
 * The Parquet reader, loaded when a Parquet file is first opened: its modules (hyparquet, the
 * codecs, the page readers) take some 60 ms to load, which a run over CSV or JSON Lines, where
 * the whole check may take a second, need not spend.
 */
function lazyParquet(source: ByteSource): TableFile {
  let opened: Promise<TableFile> | undefined;
  const file = () => (opened ??= import('./parquet-file.js').then(({ openParquetFile }) => openParquetFile(source)));
  return {
    schema: async () => (await file()).schema(),
    batches: (columns, options) => delegated(async () => (await file()).batches(columns, options)),
    readRows: (columns, rows) => delegated(async () => (await file()).readRows!(columns, rows)),
  };
}

async function* delegated(batches: () => Promise<AsyncIterable<ColumnBatch>>): AsyncGenerator<ColumnBatch> {
  yield* await batches();
}
