import { GateError } from '../errors.js';
import type { ColumnType } from '../contract/column-type.js';
import { openTable } from '../formats/open-table.js';
import { countedSource, type ReadStats } from '../formats/prefetched-source.js';
import type { Sample } from '../report/report.js';
import { MAX_SAMPLES } from '../report/report.js';
import type { CheckPlan } from './check-plan.js';
import { keyDisplay, keyIdentity } from './key-values.js';
import type { KeyColumns, PartitionState } from './partition-state.js';
import { checkFileSchema, type ReadableColumn } from './schema-check.js';
import type { PartitionFile } from './partition-file.js';
import { ViolationLog } from './violation-log.js';
import { INVALID } from './coerce-value.js';

/** Above this many candidate rows in a file, the file's key columns are read whole instead. */
const MAX_ROWS_READ_ALONE = 64;

/** A re-read row whose key hash repeated: where it is (file, row within the file) and its key. */
export interface KeyOccurrence { readonly fileIndex: number; readonly row: number; readonly sample: Sample }

/** Occurrences by the exact identity of their key; a group of two or more is a duplicate. */
export type KeyGroups = Map<string, KeyOccurrence[]>;

/** What to re-read of one file for one key set: rows within the file whose hash repeats. */
export interface CandidateRows {
  readonly keySet: KeyColumns;
  readonly rows: ReadonlySet<number>;
  /** Where the re-read rows are filed, shared across the files of the key set. */
  readonly groups: KeyGroups;
}

/**
 * The second pass of uniqueness: rows whose key hashes collided are re-read and compared by
 * value, so a hash collision can never fail a good partition. A clean partition has no
 * candidates and never gets here.
 */
export async function confirmDuplicates(state: PartitionState, files: readonly PartitionFile[]): Promise<void> {
  const pending = state.keySets.map((keySet) => ({ keySet, candidates: keySet.hashes.candidates(), groups: new Map() as KeyGroups }));
  const active = pending.filter((p) => p.candidates.length > 0);
  if (active.length === 0) return;
  for (const [index, file] of files.entries()) {
    const start = state.fileStarts[index] ?? 0;
    const end = state.fileStarts[index + 1] ?? state.scanned;
    const here = active
      .map(({ keySet, candidates, groups }) => ({ keySet, groups, rows: new Set(candidates.filter((o) => o >= start && o < end).map((o) => o - start)) }))
      .filter((p) => p.rows.size > 0);
    if (here.length > 0) await rereadKeys(state.plan, state.reads, file, index, here);
  }
  const ordinal = (o: KeyOccurrence) => (state.fileStarts[o.fileIndex] ?? 0) + o.row;
  for (const { keySet, groups } of active) logDuplicates(state.log, keySet, groups, ordinal);
}

/**
 * The value comparison: re-reads one file's candidate rows and files each under its key's exact
 * identity. Takes rows within the file, so a caller that found the candidates elsewhere (a
 * shard of a distributed run) confirms them with the same code.
 */
export async function rereadKeys(plan: CheckPlan, reads: ReadStats, file: PartitionFile, fileIndex: number, pending: readonly CandidateRows[]): Promise<void> {
  const opened = await file.open();
  try {
    const table = openTable(plan.format, countedSource(opened.source, reads));
    const readable = checkFileSchema(plan, await table.schema(), file.path, new ViolationLog([]));
    const names = [...new Set(pending.flatMap((p) => p.keySet.columns))];
    const rows = pending.flatMap((p) => [...p.rows]);
    // Each row read alone decodes its page again (about 4 ms a row on a 20k-row file): beyond a
    // few, one pass over the key columns, as the first pass made, is far cheaper.
    const batches = table.readRows && rows.length <= MAX_ROWS_READ_ALONE ? table.readRows(names, rows) : table.batches(names);
    for await (const batch of batches) {
      const values = new Map(names.map((name) => [name, checkedValues(readable, name, batch.columns.get(name))]));
      for (const { keySet, rows: wanted, groups } of pending) {
        const columns = keySet.columns.map((name) => values.get(name) ?? []);
        const types = keySet.columns.map((name) => columnType(plan, name));
        for (let i = 0; i < batch.rowCount; i++) {
          const row = batch.rowStart + i;
          if (!wanted.has(row)) continue;
          const identity = keyIdentity(columns, i);
          const group = groups.get(identity) ?? [];
          groups.set(identity, group);
          group.push({ fileIndex, row, sample: { file: file.path, row, value: keyDisplay(keySet.columns, types, columns, i) } });
        }
      }
    }
  } catch (error) {
    // A storage failure must fail the run (a retry confirms the keys); an unreadable file was
    // reported by the first pass and its keys stay unconfirmed.
    if (error instanceof GateError) throw error;
  } finally {
    await opened.close();
  }
}

const UTF8 = new TextEncoder();

function checkedValues(readable: readonly ReadableColumn[], name: string, raw: ArrayLike<unknown> | undefined): ArrayLike<unknown> {
  const column = readable.find((c) => c.plan.spec.name === name);
  const coerce = column?.coerce;
  // Strings satisfy `binary` as their UTF-8 bytes (and hash so): a file that stores the column as
  // text holds the same keys as one that stores bytes, so they compare as bytes.
  if (raw && !coerce && column?.plan.spec.type.kind === 'binary') return Array.from(raw, (value) => (typeof value === 'string' ? UTF8.encode(value) : value));
  if (!raw || !coerce) return raw ?? [];
  return Array.from(raw, (value) => {
    const checked = coerce(value);
    return checked === INVALID ? null : checked;
  });
}

function columnType(plan: CheckPlan, name: string): ColumnType | undefined {
  return plan.columns.find((c) => c.spec.name === name)?.spec.type;
}

/**
 * Logs a key set's duplicates: one per repeated key, samples in partition order. `ordinal` places
 * an occurrence in that order (the file's first row plus the row), however the groups were found.
 */
export function logDuplicates(log: ViolationLog, keySet: KeyColumns, groups: KeyGroups, ordinal: (occurrence: KeyOccurrence) => number): void {
  const duplicated = [...groups.values()].filter((g) => g.length > 1);
  if (duplicated.length === 0) return;
  const samples = duplicated.flat().sort((a, b) => ordinal(a) - ordinal(b)).slice(0, MAX_SAMPLES).map((o) => o.sample);
  const column = keySet.rule === 'unique' ? keySet.columns[0] : undefined;
  const what = keySet.rule === 'grain' ? `the grain (${keySet.columns.join(', ')})` : keySet.columns[0];
  log.addTotal(keySet.rule, column, `{count} {value|values} of ${what} {occurs|occur} more than once`, duplicated.length, samples);
}
