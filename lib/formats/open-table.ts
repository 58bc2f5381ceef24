import type { CsvDialect } from '../contract/csv-dialect.js';
import type { DataFormat } from '../contract/model.js';
import type { ByteSource } from './byte-source.js';
import { openCsvFile } from './csv-file.js';
import { openJsonLinesFile } from './jsonl-file.js';
import { formatMismatch, SNIFF_BYTES } from './format-sniff.js';
import { UnreadableError, type ColumnBatch, type TableFile } from './table-file.js';

/** How the contract says text files are laid out: the CSV dialect, and the columns in order (a header-less CSV's). */
export interface TextLayout {
  readonly csv?: CsvDialect;
  readonly columns?: readonly string[];
}

export function openTable(format: DataFormat, source: ByteSource, layout: TextLayout = {}): TableFile {
  switch (format) {
    case 'parquet': return namingMismatch(format, source, lazyParquet(source));
    case 'csv': return namingMismatch(format, source, openCsvFile(source, { ...(layout.csv ? { dialect: layout.csv } : {}), ...(layout.columns ? { columns: layout.columns } : {}) }));
    case 'jsonl': return namingMismatch(format, source, openJsonLinesFile(source));
  }
}

/**
 * A file of another format than `produces.format` fails in its reader's words (no Parquet magic,
 * a CSV header that is no header, lines that are no JSON). When reading fails that way, the
 * file's first bytes are looked at, and if they show another format the file is unreadable for
 * that reason instead, which names the fix. Files that read are never looked at twice.
 */
function namingMismatch(format: DataFormat, source: ByteSource, table: TableFile): TableFile {
  const mismatch = async (): Promise<string | undefined> => formatMismatch(format, new Uint8Array(await source.slice(0, Math.min(SNIFF_BYTES, source.byteLength))));
  const rethrow = async (error: unknown): Promise<never> => {
    const reason = error instanceof UnreadableError ? await mismatch() : undefined;
    throw reason === undefined ? error : new UnreadableError(reason, { cause: error });
  };
  return {
    ...table,
    schema: async () => {
      const schema = await table.schema().catch(rethrow);
      // A JSON Lines file read as CSV may pass for one whose header is a single odd column.
      if (schema.kind === 'text' && schema.columns[0]?.trimStart().startsWith('{')) await rethrow(new UnreadableError('the CSV header is a JSON object'));
      return schema;
    },
    batches: (columns, options) => firstBatchChecked(table.batches(columns, options), options?.textRange === undefined || options.textRange.start === 0, mismatch, rethrow),
  };
}

/** Only the start of a file tells its format: a first batch with no row readable is looked at. */
async function* firstBatchChecked(
  batches: AsyncIterable<ColumnBatch>, atStart: boolean, mismatch: () => Promise<string | undefined>, rethrow: (error: unknown) => Promise<never>,
): AsyncGenerator<ColumnBatch> {
  let first = atStart;
  let reason: string | undefined;
  try {
    for await (const batch of batches) {
      if (first && batch.rowCount > 0 && (batch.unreadableRows?.length ?? 0) === batch.rowCount) reason = await mismatch();
      if (reason !== undefined) break;
      first = false;
      yield batch;
    }
  } catch (error) {
    await rethrow(error);
  }
  if (reason !== undefined) throw new UnreadableError(reason);
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
    readRows: (columns, rows, options) => delegated(async () => (await file()).readRows!(columns, rows, options)),
  };
}

async function* delegated(batches: () => Promise<AsyncIterable<ColumnBatch>>): AsyncGenerator<ColumnBatch> {
  yield* await batches();
}
