import { coerceFor, INVALID, type Coerce } from '../checks/coerce-value.js';
import { referenceKey } from '../checks/plan-facts.js';
import { formatColumnType } from '../contract/column-type.js';
import type { ColumnSpec, DataFormat } from '../contract/model.js';
import { describeError, GateError } from '../errors.js';
import { openTable, type TextLayout } from '../formats/open-table.js';
import { satisfies } from '../formats/parquet-types.js';
import type { ColumnBatch, FileSchema } from '../formats/table-file.js';
import type { PinnedFile } from '../replay/history-entry.js';
import { objectFile } from '../storage/object-file.js';
import type { ObjectStore } from '../storage/object-store.js';

export type ColumnKeys = { readonly keys: Set<string> } | { readonly unavailable: string };

/**
 * The distinct keys (referenceKey) of one column over the given files, read as pinned to their
 * ETags and parsed by the contract's type, as the checks read them. More than `limit` distinct
 * keys, a file that lacks the column or cannot be read: unavailable, saying which. Only a
 * storage failure (a GateError: a file replaced or gone, the store down) is thrown.
 */
export async function columnKeys(store: ObjectStore, files: readonly PinnedFile[], format: DataFormat, column: ColumnSpec, limit: number, layout: TextLayout = {}): Promise<ColumnKeys> {
  const keys = new Set<string>();
  for (const file of files) {
    const problem = await addFileKeys(store, file, format, column, { keys, limit }, layout);
    if (problem !== undefined) return { unavailable: problem };
  }
  return { keys };
}

interface KeySink {
  readonly keys: Set<string>;
  readonly limit: number;
}

async function addFileKeys(store: ObjectStore, file: PinnedFile, format: DataFormat, column: ColumnSpec, sink: KeySink, layout: TextLayout): Promise<string | undefined> {
  const where = `${store.location}/${file.key}`;
  const opened = await objectFile(store, file).open();
  try {
    const table = openTable(format, opened.source, layout);
    const schema = await table.schema();
    const problem = columnProblem(schema, column);
    if (problem !== undefined) return `${where}: ${problem}`;
    const coerce = schema.kind === 'typed' ? undefined : coerceFor(schema.kind, column.type);
    const parse = schema.kind === 'typed' ? undefined : new Map([[column.name, column.type]]);
    for await (const batch of table.batches([column.name], { parse })) {
      if (!addBatchKeys(batch, column.name, coerce, sink)) return `more than ${sink.limit} keys in ${where} and the files before it: a reference loads at most ${sink.limit}`;
    }
    return undefined;
  } catch (error) {
    if (error instanceof GateError) throw error;
    return `${where} cannot be read: ${describeError(error)}`;
  } finally {
    await opened.close();
  }
}

/** False once the keys outgrow the limit. */
function addBatchKeys(batch: ColumnBatch, name: string, coerce: Coerce | undefined, sink: KeySink): boolean {
  const values = batch.columns.get(name);
  if (!values) return true;
  // A column the reader parsed itself holds checked values already (INVALID where it rejected one).
  const convert = batch.parsed?.has(name) ? undefined : coerce;
  for (let i = 0; i < values.length; i++) {
    const value = convert ? convert(values[i]) : values[i];
    if (value === null || value === undefined || value === INVALID) continue;
    sink.keys.add(referenceKey(value));
    if (sink.keys.size > sink.limit) return false;
  }
  return true;
}

/** JSON Lines files name their columns row by row: a key absent there is a null, not a missing column. */
function columnProblem(schema: FileSchema, column: ColumnSpec): string | undefined {
  if (schema.kind === 'dynamic') return undefined;
  if (schema.kind === 'text') return schema.columns.includes(column.name) ? undefined : `the file has no column ${column.name}`;
  const stored = schema.columns.find((c) => c.name === column.name);
  if (!stored) return `the file has no column ${column.name}`;
  if (stored.type.kind !== 'unsupported' && satisfies(column.type, stored.type)) return undefined;
  const found = stored.type.kind === 'unsupported' ? stored.type.detail : formatColumnType(stored.type);
  return `column ${column.name} is ${stored.physical} (${found}) in the file, not ${formatColumnType(column.type)} as its contract says`;
}
