import { describeError, GateError } from '../errors.js';
import { openTable } from '../formats/open-table.js';
import { countedSource, type ReadStats } from '../formats/prefetched-source.js';
import { UnreadableError, type GroupRange, type RowGroupInfo, type TextRange } from '../formats/table-file.js';
import type { Sample } from '../report/report.js';
import { textLayout, type CheckPlan } from './check-plan.js';
import { checkBatch } from './check-batch.js';
import { recordValue, spanRecords, type SpanRecord } from './observed-ranges.js';
import { PartitionState } from './partition-state.js';
import { checkFileSchema, logExtraColumns, mayBeAbsent } from './schema-check.js';
import { columnsToDecode } from './settle-by-statistics.js';
import { hashOnlyColumns, presenceOnlyColumns } from './hash-only-columns.js';
import { byteColumns } from './byte-rules.js';
import type { PartitionFile } from './partition-file.js';
import type { InvalidRowList } from './invalid-rows.js';
import type { PendingReferenceRow } from './reference-rows.js';
import { ViolationLog, type LogEntry } from './violation-log.js';

/**
 * A piece of a partition that can be checked on its own, in this thread or another: one file,
 * or some of a Parquet file's row groups. Only a file's first slice reports file-level findings.
 */
export interface Slice {
  readonly fileIndex: number;
  readonly groups?: GroupRange;
  /** A byte range of a CSV or JSON Lines file's records (formats/csv-ranges.ts, jsonl-ranges.ts cut them). */
  readonly textRange?: TextRange;
  readonly first: boolean;
}

/** What a slice found: plain data (structured-cloneable), merged in slice order afterwards. */
export interface SliceResult {
  readonly fileIndex: number;
  readonly rows: number;
  readonly scanned: number;
  readonly entries: LogEntry[];
  /** Key hashes per key set, one per scanned row, in segments. */
  readonly hashes: Float64Array[][];
  /** The newest freshness value as text (a SpanRecord value), which JSON keeps to its last digit. */
  readonly newest?: { readonly value: string; readonly sample: Sample };
  readonly reads: ReadStats;
  /** Why the file could not be read, when it could not. */
  readonly unreadable?: string;
  /** A JSON Lines range's keys, for its whole file's extra-column check (see mergeSlices). */
  readonly keys?: readonly string[];
  /** With a row tolerance: this slice's rows that broke a row-level error rule. */
  readonly invalid?: InvalidRowList;
  /** A file's first slice: the contract's columns the file lacks, read as defaults or nulls. */
  readonly absent?: readonly string[];
  /** The least and greatest value of each ranged column that held one, as text JSON keeps exactly (see SpanRecord). */
  readonly observed?: readonly SpanRecord[];
  /** Indices of the contract's reference rows whose key this slice held. */
  readonly referenceRowsSeen?: readonly number[];
  /** Reference row hits by a key hashed from the bytes, to confirm by value after the merge. */
  readonly referencePending?: readonly PendingReferenceRow[];
}

export async function checkSlice(plan: CheckPlan, file: PartitionFile, slice: Slice, onRows: (rows: number) => void = () => {}): Promise<SliceResult> {
  const state = new PartitionState(plan);
  const log = slice.first ? state.log : new ViolationLog([], plan.severityOf);
  let unreadable: string | undefined;
  let rangeKeys: string[] | undefined;
  let absent: string[] | undefined;
  const opened = await file.open();
  try {
    const table = openTable(plan.format, countedSource(opened.source, state.reads), textLayout(plan));
    const schema = await table.schema();
    const columns = checkFileSchema(plan, schema, file.path, log);
    const present = columns.filter((c) => !c.absent);
    if (slice.first) absent = columns.filter((c) => c.absent).map((c) => c.plan.spec.name);
    const keys = new Set<string>();
    const select = (group: RowGroupInfo) => columnsToDecode(plan, columns, group, state);
    const text = schema.kind === 'text';
    // A text or JSON Lines reader may parse values by the contract's types itself, from the bytes;
    // not a JSON column with a default, whose missing keys the engine reads as that default.
    const parse = schema.kind === 'typed' ? undefined : new Map(present.filter((c) => text || c.plan.absentValue === null).map((c) => [c.plan.spec.name, c.plan.spec.type]));
    const presenceOnly = text ? undefined : presenceOnlyColumns(plan, present);
    const textBytes = schema.kind === 'typed' ? byteColumns(plan, present) : undefined;
    const options = { select, groups: slice.groups, textRange: slice.textRange, hashOnly: hashOnlyColumns(plan, present, text), presenceOnly, parse, textBytes, vectors: true };
    for await (const batch of table.batches(present.map((c) => c.plan.spec.name), options)) {
      checkBatch(state, columns, file.path, batch);
      batch.keys?.forEach((key) => keys.add(key));
      onRows(state.rows);
    }
    // A range's keys are a part of its file's: the file's extra columns are told once, on merging.
    if (slice.textRange === undefined) logExtraColumns(plan, keys, file.path, log);
    else rangeKeys = [...keys];
    // JSON Lines has no schema to lack a column: a key no line of the file has is its absence.
    if (schema.kind === 'dynamic' && slice.textRange === undefined && slice.first) absent = unseen(plan, keys);
  } catch (error) {
    if (error instanceof GateError) throw error;
    unreadable = error instanceof UnreadableError ? error.message : `the reader failed: ${describeError(error)}`;
  } finally {
    await opened.close();
  }
  return {
    fileIndex: slice.fileIndex,
    rows: state.rows,
    scanned: state.scanned,
    entries: state.log.entries(),
    hashes: state.keySets.map((keySet) => keySet.hashes.segments()),
    ...(state.newest ? { newest: { value: String(state.newest.value), sample: state.newest.sample } } : {}),
    reads: state.reads,
    ...(unreadable === undefined ? {} : { unreadable }),
    ...(rangeKeys === undefined ? {} : { keys: rangeKeys }),
    ...(absent?.length ? { absent } : {}),
    ...(state.invalid ? { invalid: state.invalid.list() } : {}),
    ...observedOf(state),
    ...(state.referenceRowsSeen.size > 0 ? { referenceRowsSeen: [...state.referenceRowsSeen] } : {}),
    ...(state.referencePending.has(-1) ? { referencePending: state.referencePending.get(-1) } : {}),
  };
}

function observedOf(state: PartitionState): { observed?: SpanRecord[] } {
  const records = spanRecords(state.spans);
  return records.length > 0 ? { observed: records } : {};
}

/**
 * Folds slice results, in slice order, into one partition state: counts add up, samples keep
 * file-then-row order, key hashes line up with their rows, and a file that broke in any slice
 * is reported unreadable once.
 */
export function mergeSlices(plan: CheckPlan, files: readonly PartitionFile[], results: readonly SliceResult[]): PartitionState {
  const state = new PartitionState(plan);
  const broken = new Set<number>();
  const rangeKeys = new Map<number, Set<string>>();
  for (const result of results) {
    if (result.keys) rangeKeys.set(result.fileIndex, new Set([...(rangeKeys.get(result.fileIndex) ?? []), ...result.keys]));
    state.fileStarts[result.fileIndex] ??= state.scanned;
    state.log.absorb(result.entries);
    result.hashes.forEach((segments, i) => segments.forEach((segment) => state.keySets[i]?.hashes.pushAll(segment)));
    state.rows += result.rows;
    state.scanned += result.scanned;
    state.reads.bytes += result.reads.bytes;
    state.reads.requests += result.reads.requests;
    for (const column of result.absent ?? []) state.observeAbsent(column, files[result.fileIndex]?.path ?? '');
    if (result.newest) state.observeNewest(recordValue(result.newest.value), result.newest.sample);
    for (const span of result.observed ?? []) state.observeSpan(span.column, recordValue(span.min), recordValue(span.max));
    for (const index of result.referenceRowsSeen ?? []) state.referenceRowsSeen.add(index);
    if (result.referencePending) state.referencePending.set(result.fileIndex, [...(state.referencePending.get(result.fileIndex) ?? []), ...result.referencePending]);
    if (result.unreadable !== undefined && !broken.has(result.fileIndex)) {
      broken.add(result.fileIndex);
      state.log.add('unreadable', undefined, '{count} {file|files} could not be read', { file: files[result.fileIndex]?.path ?? '', row: null, value: result.unreadable });
    }
  }
  // As one pass over the file: its extra columns and the keys none of its lines has, unless it broke part way.
  for (const [index, keys] of rangeKeys) {
    if (broken.has(index)) continue;
    logExtraColumns(plan, keys, files[index]?.path ?? '', state.log);
    if (plan.format === 'jsonl') for (const column of unseen(plan, keys)) state.observeAbsent(column, files[index]?.path ?? '');
  }
  return state;
}

/** Contract columns that may be absent and no line has: a required one without a default is told by its rows instead. */
function unseen(plan: CheckPlan, keys: ReadonlySet<string>): string[] {
  return plan.columns.filter((c) => !keys.has(c.spec.name) && mayBeAbsent(plan, c)).map((c) => c.spec.name);
}
