import { UnreadableError } from '../formats/table-file.js';
import type { ColumnType } from '../contract/column-type.js';
import { openTable } from '../formats/open-table.js';
import { countedSource, type ReadStats } from '../formats/prefetched-source.js';
import { MAX_SAMPLES } from '../report/report.js';
import { textLayout, type CheckPlan } from './check-plan.js';
import { DuplicateTally, type DuplicateSummary, type KeyOccurrence } from './duplicate-tally.js';
import { keyDisplay, keyHashAt } from './key-values.js';
import type { KeyColumns, PartitionState } from './partition-state.js';
import { checkFileSchema, type ReadableColumn } from './schema-check.js';
import type { PartitionFile } from './partition-file.js';
import { ViolationLog } from './violation-log.js';
import { INVALID } from './coerce-value.js';

/** Above this many candidate rows in a file, the file's key columns are read whole instead. */
const MAX_ROWS_READ_ALONE = 64;

/** What to re-read of one file for one key set: rows within the file whose hash repeats. */
export interface CandidateRows {
  readonly keySet: KeyColumns;
  /** Rows within the file, ascending. */
  readonly rows: Uint32Array;
  /** Where the re-read rows are counted, shared across the files of the key set. */
  readonly tally: DuplicateTally;
}

/**
 * The second pass of uniqueness: rows whose key hashes collided are re-read and compared by
 * value, so a hash collision can never fail a good partition. A clean partition has no
 * candidates and never gets here; a file uploaded twice is one more pass over its key columns.
 */
export async function confirmDuplicates(state: PartitionState, files: readonly PartitionFile[]): Promise<void> {
  const pending = state.keySets.map((keySet) => {
    const candidates = keySet.hashes.candidates();
    return { keySet, candidates, tally: new DuplicateTally(candidates.length) };
  });
  const active = pending.filter((p) => p.candidates.length > 0);
  if (active.length === 0) return;
  for (const [index, file] of files.entries()) {
    const start = state.fileStarts[index] ?? 0;
    const end = state.fileStarts[index + 1] ?? state.scanned;
    const here = active
      .map(({ keySet, candidates, tally }) => ({ keySet, tally, rows: rowsWithin(candidates, start, end) }))
      .filter((p) => p.rows.length > 0);
    if (here.length > 0) await rereadKeys(state.plan, state.reads, file, index, here);
  }
  const ordinal = (o: KeyOccurrence) => (state.fileStarts[o.fileIndex] ?? 0) + o.row;
  for (const { keySet, tally } of active) logDuplicates(state.log, keySet, [tally.summary()], ordinal);
}

/** The ascending ordinals in [start, end), as rows of the file that starts at `start`. */
export function rowsWithin(ordinals: Uint32Array, start: number, end: number): Uint32Array {
  const rows = ordinals.subarray(firstAtLeast(ordinals, start), firstAtLeast(ordinals, end)).slice();
  for (let i = 0; i < rows.length; i++) rows[i]! -= start;
  return rows;
}

function firstAtLeast(sorted: Uint32Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The value comparison: re-reads one file's candidate rows, in one pass over its key columns
 * (or row by row when they are few), and counts each by its key's exact identity. Takes rows
 * within the file, so a caller that found the candidates elsewhere (a shard of a distributed
 * run) confirms them with the same code.
 */
export async function rereadKeys(plan: CheckPlan, reads: ReadStats, file: PartitionFile, fileIndex: number, pending: readonly CandidateRows[]): Promise<void> {
  const opened = await file.open();
  try {
    const table = openTable(plan.format, countedSource(opened.source, reads), textLayout(plan));
    const schema = await table.schema();
    const readable = checkFileSchema(plan, schema, file.path, new ViolationLog([]));
    const names = [...new Set(pending.flatMap((p) => p.keySet.columns))];
    const count = pending.reduce((sum, p) => sum + p.rows.length, 0);
    // Each row read alone decodes its page again (about 4 ms a row on a 20k-row file): beyond a
    // few, one pass over the key columns, as the first pass made, is far cheaper.
    const rows = () => [...new Set(pending.flatMap((p) => Array.from(p.rows)))].sort((a, b) => a - b);
    // Text keys are compared as their bytes: decoding a string per row would cost most of the pass.
    const rawText = new Set(readable.filter((c) => c.plan.spec.type.kind === 'string' && !c.coerce && names.includes(c.plan.spec.name)).map((c) => c.plan.spec.name));
    const textual = new Set(readable.filter((c) => ['string', 'binary'].includes(c.plan.spec.type.kind) && names.includes(c.plan.spec.name)).map((c) => c.plan.spec.name));
    const pick = { columns: textual, rows: candidateMask(rows()) };
    // Numbers, dates and times in text are parsed by the reader as the first pass parsed them (a
    // DECIMAL(38,x) to its last digit), not through JSON.parse's doubles.
    const parse = schema.kind === 'typed' ? undefined : new Map(readable.filter((c) => names.includes(c.plan.spec.name) && !textual.has(c.plan.spec.name)).map((c) => [c.plan.spec.name, c.plan.spec.type]));
    const batches = table.readRows && count <= MAX_ROWS_READ_ALONE ? table.readRows(names, rows(), { parse }) : table.batches(names, { rawText, pick, parse });
    for await (const batch of batches) {
      const values = new Map(names.map((name) => [name, checkedValues(readable, name, batch.columns.get(name), batch.parsed?.has(name) === true)]));
      for (const candidates of pending) tallyBatch(plan, file.path, fileIndex, candidates, values, batch);
    }
  } catch (error) {
    // An unreadable file was reported by the first pass and its keys stay unconfirmed; anything
    // else (a storage failure, which a retry confirms, or a bug) fails the run rather than drop them.
    if (!(error instanceof UnreadableError)) throw error;
  } finally {
    await opened.close();
  }
}

/** The candidate rows (ascending) of a batch's rows as a mask: 1 where a row is re-read. */
function candidateMask(rows: readonly number[]): (rowStart: number, rowCount: number) => Uint8Array {
  return (rowStart, rowCount) => {
    const mask = new Uint8Array(rowCount);
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (rows[mid]! < rowStart) low = mid + 1;
      else high = mid;
    }
    for (let at = low; at < rows.length && rows[at]! < rowStart + rowCount; at++) mask[rows[at]! - rowStart] = 1;
    return mask;
  };
}

/** Counts the batch's candidate rows of one key set; keeps a sample while the tally wants one. */
function tallyBatch(plan: CheckPlan, path: string, fileIndex: number, candidates: CandidateRows, values: ReadonlyMap<string, ArrayLike<unknown>>, batch: { rowStart: number; rowCount: number }): void {
  const { keySet, rows, tally } = candidates;
  const columns = keySet.columns.map((name) => values.get(name) ?? []);
  const end = batch.rowStart + batch.rowCount;
  for (let at = firstAtLeast(rows, batch.rowStart); at < rows.length && rows[at]! < end; at++) {
    const row = rows[at]!;
    const i = row - batch.rowStart;
    const hash = keyHashAt(columns, i);
    if (hash !== hash) continue; // no complete key now: nulls are the required rule's to report
    const group = tally.add(hash, columns, i);
    if (tally.wantsSample()) {
      const types = keySet.columns.map((name) => columnType(plan, name));
      tally.keep(group, { fileIndex, row, sample: { file: path, row, value: keyDisplay(keySet.columns, types, columns, i) } });
    }
  }
}

const UTF8 = new TextEncoder();

function checkedValues(readable: readonly ReadableColumn[], name: string, raw: ArrayLike<unknown> | undefined, parsed: boolean): ArrayLike<unknown> {
  const column = readable.find((c) => c.plan.spec.name === name);
  // A column the reader parsed holds checked values already (ColumnBatch.parsed).
  const coerce = parsed ? undefined : column?.coerce;
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
 * Logs a key set's duplicates from the summaries of disjoint parts (shards of a fan-out, or the
 * one tally of a run): counts add up, samples are the first in partition order. `ordinal` places
 * an occurrence in that order (the file's first row plus the row), however it was found.
 */
export function logDuplicates(log: ViolationLog, keySet: KeyColumns, parts: readonly DuplicateSummary[], ordinal: (occurrence: KeyOccurrence) => number): void {
  const count = parts.reduce((sum, part) => sum + part.count, 0);
  if (count === 0) return;
  const samples = parts.flatMap((part) => part.samples).sort((a, b) => ordinal(a) - ordinal(b)).slice(0, MAX_SAMPLES).map((o) => o.sample);
  const column = keySet.rule === 'unique' ? keySet.columns[0] : undefined;
  const what = keySet.rule === 'grain' ? `the grain (${keySet.columns.join(', ')})` : keySet.columns[0];
  log.addTotal(keySet.rule, column, `{count} {value|values} of ${what} {occurs|occur} more than once`, count, samples);
}
