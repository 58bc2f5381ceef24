import { openTable } from '../formats/open-table.js';
import { countedSource } from '../formats/prefetched-source.js';
import { UnreadableError } from '../formats/table-file.js';
import { textLayout } from './check-plan.js';
import { INVALID } from './coerce-value.js';
import type { PartitionFile } from './partition-file.js';
import type { PartitionState } from './partition-state.js';
import { canonical } from './reference-rows.js';
import { checkFileSchema } from './schema-check.js';
import { ViolationLog } from './violation-log.js';

/**
 * After the pass, for hits found by a hash read from the bytes: reads those rows' keys again
 * (table.readRows, a page per row; hits are a few rows of a partition) and logs the findings of
 * the rows whose key is the reference row's. An unreadable file was reported by the pass.
 */
export async function confirmReferenceRows(state: PartitionState, files: readonly PartitionFile[]): Promise<void> {
  const plan = state.plan.referenceRows;
  if (!plan || state.referencePending.size === 0) return;
  for (const [fileIndex, pending] of [...state.referencePending].sort(([a], [b]) => a - b)) {
    const file = files[fileIndex];
    const keys = file ? await readKeys(state, file, [...new Set(pending.map((p) => p.row))].sort((a, b) => a - b)) : new Map<number, string>();
    for (const hit of pending) {
      const row = plan.rows[hit.index]!;
      if (keys.get(hit.row) !== row.keyText[0]) continue; // a hash collision, or a file that broke
      state.referenceRowsSeen.add(row.index);
      for (const f of hit.findings) state.log.addTotal('reference_value', f.column, f.detail, 1, [f.sample], row.severity);
    }
  }
}

/** The one grain column's canonical text at each of `rows`. */
async function readKeys(state: PartitionState, file: PartitionFile, rows: readonly number[]): Promise<Map<number, string>> {
  const name = state.plan.grain[0]!;
  const keys = new Map<number, string>();
  const opened = await file.open();
  try {
    const table = openTable(state.plan.format, countedSource(opened.source, state.reads), textLayout(state.plan));
    const schema = await table.schema();
    const column = checkFileSchema(state.plan, schema, file.path, new ViolationLog([])).find((c) => c.plan.spec.name === name);
    const parse = schema.kind === 'typed' || !column ? undefined : new Map([[name, column.plan.spec.type]]);
    const batches = table.readRows ? table.readRows([name], rows, { parse }) : table.batches([name], { parse });
    for await (const batch of batches) {
      const raw = batch.columns.get(name);
      const coerce = batch.parsed?.has(name) ? undefined : column?.coerce;
      for (const row of rows) {
        if (!raw || row < batch.rowStart || row >= batch.rowStart + batch.rowCount) continue;
        const value = coerce ? coerce(raw[row - batch.rowStart]) : raw[row - batch.rowStart];
        if (value !== null && value !== undefined && value !== INVALID) keys.set(row, canonical(value));
      }
    }
  } catch (error) {
    if (!(error instanceof UnreadableError)) throw error;
  } finally {
    await opened.close();
  }
  return keys;
}

/** After every slice is merged: a required reference row no slice saw. */
export function logMissingReferenceRows(state: PartitionState): void {
  for (const row of state.plan.referenceRows?.rows ?? []) {
    if (!row.required || state.referenceRowsSeen.has(row.index)) continue;
    const detail = `reference row ${row.label} is required, and no row of the partition has that key`;
    state.log.addTotal('reference_missing', undefined, detail, 1, [], row.severity);
  }
}
