import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';
import { UnreadableError, type ColumnBatch, type RowGroupInfo, type TableFile } from '../../lib/formats/table-file.js';

/**
 * How a file is read: `sliced` forces every row group through the sliced reader (group-slices.ts),
 * which walks and decodes pages itself, instead of only groups over 4M values; `streamed` (with
 * `sliced`) also reads every Snappy data page from the file as it is decoded (streamed-page.ts),
 * instead of only pages over the page window; `hashed` reads string and binary columns as key hashes.
 */
export interface ReadPath {
  readonly sliced: boolean;
  readonly streamed: boolean;
  readonly hashed: boolean;
}

export interface ReadOutcome {
  readonly outcome: 'read' | 'unreadable' | 'CRASH';
  readonly detail: string;
}

/** Rows the engine re-reads alone after a clean pass (confirm-duplicates.ts): first, middle, last. */
const REREAD_ROWS = 3;

/**
 * Reads a file as the engine does: the schema, every column's batches (dictionaries read as the
 * engine reads them to prove enum and pattern rules), then a few rows alone, as a duplicate is
 * confirmed. A batch must hold every readable column, each with exactly its rows: the engine would
 * take a missing column for nulls, so a batch that does not is a crash even if nothing threw.
 */
export async function readLikeTheEngine(bytes: Uint8Array, path: ReadPath): Promise<ReadOutcome> {
  const table = openParquetFile(byteSourceFromBytes(bytes), path.sliced ? { wholeGroupValues: 0, ...(path.streamed ? { streamPageBytes: 0 } : {}) } : {});
  try {
    const schema = await table.schema();
    if (schema.kind !== 'typed') return { outcome: 'CRASH', detail: `schema kind ${schema.kind}` };
    const names = schema.columns.map((c) => c.name);
    const readable = schema.columns.filter((c) => c.type.kind !== 'unsupported').map((c) => c.name);
    const hashOnly = new Set(path.hashed ? schema.columns.filter((c) => c.type.kind === 'string' || c.type.kind === 'binary').map((c) => c.name) : []);
    const select = async (group: RowGroupInfo) => {
      for (const name of names) await group.dictionary?.(name);
      return names;
    };
    const rows = await readBatches(table.batches(names, { hashOnly, select }), readable);
    if (typeof rows === 'string') return { outcome: 'CRASH', detail: rows };
    const reread = await rereadRows(table, readable, rows);
    return reread ? { outcome: 'CRASH', detail: reread } : { outcome: 'read', detail: `${rows} rows` };
  } catch (error) {
    if (error instanceof UnreadableError) return { outcome: 'unreadable', detail: error.message };
    const where = error instanceof Error ? (error.stack?.split('\n')[1]?.trim() ?? '') : '';
    return { outcome: 'CRASH', detail: `${error instanceof Error ? `${error.name}: ${error.message}` : String(error)} ${where}` };
  }
}

/** Rows read, or what is wrong with a batch. */
async function readBatches(batches: AsyncIterable<ColumnBatch>, columns: readonly string[]): Promise<number | string> {
  let rows = 0;
  for await (const batch of batches) {
    const wrong = batchShape(batch, columns);
    if (wrong) return wrong;
    rows += batch.rowCount;
  }
  return rows;
}

async function rereadRows(table: TableFile, names: readonly string[], rows: number): Promise<string | undefined> {
  if (!table.readRows || rows === 0) return undefined;
  const wanted = [...new Set([0, Math.floor(rows / 2), rows - 1].slice(0, REREAD_ROWS))];
  let seen = 0;
  for await (const batch of table.readRows(names, wanted)) {
    const wrong = batchShape(batch, names);
    if (wrong) return `re-reading rows ${wanted.join(', ')}: ${wrong}`;
    seen += batch.rowCount;
  }
  return seen === wanted.length ? undefined : `re-reading rows ${wanted.join(', ')} gave ${seen} rows`;
}

/** Every column asked for is there (as values or hashes), with one entry per row of the batch. */
function batchShape(batch: ColumnBatch, columns: readonly string[]): string | undefined {
  const rows = `a batch of rows ${batch.rowStart}-${batch.rowStart + batch.rowCount - 1}`;
  const missing = columns.find((name) => !batch.columns.has(name) && !batch.hashes?.has(name));
  if (missing !== undefined) return `${rows} lacks column "${missing}"`;
  const lengths = [...batch.columns, ...(batch.hashes ?? [])].map(([name, values]) => [name, values.length] as const);
  const wrong = lengths.find(([, length]) => length !== batch.rowCount);
  return wrong && `${rows} holds ${wrong[1]} values of column "${wrong[0]}"`;
}
