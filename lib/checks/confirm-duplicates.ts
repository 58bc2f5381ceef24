import type { ColumnType } from '../contract/column-type.js';
import { openTable } from '../formats/open-table.js';
import { countedSource } from '../formats/prefetched-source.js';
import type { Sample } from '../report/report.js';
import { MAX_SAMPLES } from '../report/report.js';
import { keyDisplay, keyIdentity } from './key-values.js';
import type { KeySet, PartitionState } from './partition-state.js';
import { checkFileSchema, type ReadableColumn } from './schema-check.js';
import type { PartitionFile } from './validate-partition.js';
import { ViolationLog } from './violation-log.js';
import { INVALID } from './coerce-value.js';

interface Occurrence { readonly ordinal: number; readonly sample: Sample }
interface KeyGroup { readonly occurrences: Occurrence[] }

/**
 * The second pass of uniqueness: rows whose key hashes collided are re-read and compared by
 * value, so a hash collision can never fail a good partition. A clean partition has no
 * candidates and never gets here.
 */
export async function confirmDuplicates(state: PartitionState, files: readonly PartitionFile[]): Promise<void> {
  const pending = state.keySets.map((keySet) => ({ keySet, candidates: new Set(keySet.hashes.candidates()), groups: new Map<string, KeyGroup>() }));
  const active = pending.filter((p) => p.candidates.size > 0);
  if (active.length === 0) return;
  for (const [index, file] of files.entries()) {
    const start = state.fileStarts[index] ?? 0;
    const end = state.fileStarts[index + 1] ?? state.scanned;
    const here = active.filter((p) => [...p.candidates].some((o) => o >= start && o < end));
    if (here.length > 0) await rereadKeys(state, file, start, end, here);
  }
  for (const { keySet, groups } of active) logDuplicates(state, keySet, groups);
}

async function rereadKeys(state: PartitionState, file: PartitionFile, start: number, end: number, pending: { keySet: KeySet; candidates: Set<number>; groups: Map<string, KeyGroup> }[]): Promise<void> {
  const opened = await file.open();
  try {
    const table = openTable(state.plan.format, countedSource(opened.source, state.reads));
    const readable = checkFileSchema(state.plan, await table.schema(), file.path, new ViolationLog([]));
    const names = [...new Set(pending.flatMap((p) => p.keySet.columns))];
    const rows = pending.flatMap((p) => [...p.candidates].filter((o) => o >= start && o < end).map((o) => o - start));
    const batches = table.readRows ? table.readRows(names, rows) : table.batches(names);
    for await (const batch of batches) {
      const values = new Map(names.map((name) => [name, checkedValues(readable, name, batch.columns.get(name))]));
      for (const { keySet, candidates, groups } of pending) {
        const columns = keySet.columns.map((name) => values.get(name) ?? []);
        const types = keySet.columns.map((name) => columnType(state, name));
        for (let i = 0; i < batch.rowCount; i++) {
          const ordinal = start + batch.rowStart + i;
          if (!candidates.has(ordinal)) continue;
          const identity = keyIdentity(columns, i);
          const group = groups.get(identity) ?? { occurrences: [] };
          groups.set(identity, group);
          group.occurrences.push({ ordinal, sample: { file: file.path, row: batch.rowStart + i, value: keyDisplay(keySet.columns, types, columns, i) } });
        }
      }
    }
  } catch {
    // The first pass already reported why this file cannot be read; its keys stay unconfirmed.
  } finally {
    await opened.close();
  }
}

function checkedValues(readable: readonly ReadableColumn[], name: string, raw: ArrayLike<unknown> | undefined): ArrayLike<unknown> {
  const coerce = readable.find((c) => c.plan.spec.name === name)?.coerce;
  if (!raw || !coerce) return raw ?? [];
  return Array.from(raw, (value) => {
    const checked = coerce(value);
    return checked === INVALID ? null : checked;
  });
}

function columnType(state: PartitionState, name: string): ColumnType | undefined {
  return state.plan.columns.find((c) => c.spec.name === name)?.spec.type;
}

function logDuplicates(state: PartitionState, keySet: KeySet, groups: Map<string, KeyGroup>): void {
  const duplicated = [...groups.values()].filter((g) => g.occurrences.length > 1);
  if (duplicated.length === 0) return;
  const samples = duplicated.flatMap((g) => g.occurrences).sort((a, b) => a.ordinal - b.ordinal).slice(0, MAX_SAMPLES).map((o) => o.sample);
  const column = keySet.rule === 'unique' ? keySet.columns[0] : undefined;
  const what = keySet.rule === 'grain' ? `the grain (${keySet.columns.join(', ')})` : keySet.columns[0];
  state.log.addTotal(keySet.rule, column, `{count} {value|values} of ${what} {occurs|occur} more than once`, duplicated.length, samples);
}
