import type { DictionaryVector } from '../formats/column-vector.js';
import type { ColumnBatch } from '../formats/table-file.js';
import type { SampleValue } from '../report/report.js';
import type { ColumnPlan } from './check-plan.js';
import { hashValue } from './key-hash.js';
import { below, type Ordered } from './observed-ranges.js';
import type { PartitionState } from './partition-state.js';
import { toSampleValue } from './sample-value.js';
import type { ReadableColumn } from './schema-check.js';

/** The rows of a batch as a sample names them. */
export interface BatchRows {
  readonly state: PartitionState;
  readonly file: string;
  readonly batch: Pick<ColumnBatch, 'rowStart'>;
  /** 1 at a row that could not be read. */
  readonly skip: Uint8Array | undefined;
}

/** An entry's bit for "null": its rows fall to `required` instead of the rules. */
const NULL_ENTRY = 1 << 30;
/** Rules a column may have for its verdicts to fit in an entry's bits below NULL_ENTRY. */
const MOST_RULES = 30;

/**
 * What one column's rules make of one dictionary's entries, each decided the first time a row
 * uses it: a dictionary is handed out with every slice of its chunk (8,192 rows), and a writer's
 * dictionary may hold more entries than a slice has rows.
 */
interface EntryVerdicts {
  /** Per entry: -1 undecided, else the bits of the rules it fails (bit r: rules[r]), or NULL_ENTRY. */
  readonly masks: Int32Array;
  /** An entry's sample value, made once. */
  readonly samples: (SampleValue | undefined)[];
  /** Per entry: the batch that last used it (see usedEntries). */
  readonly stamps: Int32Array;
  batch: number;
}

const verdicts = new WeakMap<object, WeakMap<ColumnPlan, EntryVerdicts>>();
const entryHashes = new WeakMap<object, Float64Array>();

/** A column of the batch the dictionary path checks: dictionary indices, values as the file stores them. */
export function dictionaryOf(batch: ColumnBatch, column: ReadableColumn): DictionaryVector | undefined {
  const vector = batch.vectors?.get(column.plan.spec.name);
  if (vector?.kind !== 'dictionary' || column.coerce || column.absent || batch.parsed?.has(column.plan.spec.name)) return undefined;
  return column.plan.rules.length <= MOST_RULES ? vector : undefined;
}

/**
 * Whether a column's values are read row by row besides its own rules: as another column's
 * `required_when` condition, as part of a composite key, or by the reference rows' lookup.
 */
export function valuesWanted(state: PartitionState, name: string): boolean {
  const { plan } = state;
  if (plan.referenceRows) return true;
  if (plan.columns.some((c) => c.spec.requiredWhen?.column === name)) return true;
  return state.keySets.some((keySet) => keySet.columns.length > 1 && keySet.columns.includes(name));
}

/**
 * Checks a dictionary-encoded column as checkColumnValues checks values, deciding each rule once
 * per entry: the same findings in the same row order, and the span and newest value of the
 * entries rows use (an entry no row uses is never judged, as no row holds it).
 */
export function checkDictionaryColumn(rows: BatchRows, column: ReadableColumn, vector: DictionaryVector, condition: ((row: number) => boolean) | undefined): void {
  const { spec, mustHaveValue, rules } = column.plan;
  const { state, skip } = rows;
  const { entries, indices } = vector;
  const decided = verdictsFor(entries, column.plan);
  const { masks } = decided;
  const missing = `{count} {row|rows} {has|have} no value for ${spec.name}`;
  const missingWhen = spec.requiredWhen ? `${missing} although ${spec.requiredWhen.column} is ${spec.requiredWhen.in.join(' or ')}` : missing;
  const ranged = state.spans.has(spec.name);
  const freshness = state.plan.freshness?.column === spec.name;
  const used: number[] | undefined = ranged || freshness ? [] : undefined;
  const batch = ++decided.batch;
  for (let i = 0; i < indices.length; i++) {
    if (skip?.[i]) continue;
    const index = indices[i]!;
    let mask = index < 0 ? NULL_ENTRY : masks[index]!;
    if (mask < 0) mask = decide(decided, entries, column, index);
    if (mask === NULL_ENTRY) {
      if (mustHaveValue) state.rowFailed('required', spec.name, missing, { file: rows.file, row: rows.batch.rowStart + i, value: null });
      else if (condition?.(i)) state.rowFailed('required', spec.name, missingWhen, { file: rows.file, row: rows.batch.rowStart + i, value: null });
      continue;
    }
    if (mask !== 0) {
      const value = decided.samples[index]!;
      for (let r = 0; r < rules.length; r++) {
        if (mask & (1 << r)) state.rowFailed(rules[r]!.rule, spec.name, rules[r]!.detail, { file: rows.file, row: rows.batch.rowStart + i, value });
      }
    }
    if (used && decided.stamps[index] !== batch) {
      decided.stamps[index] = batch;
      used.push(index);
    }
  }
  if (used) observeUsed(rows, column, entries, used, ranged, freshness);
}

function verdictsFor(entries: ArrayLike<unknown>, plan: ColumnPlan): EntryVerdicts {
  let byPlan = verdicts.get(entries);
  if (!byPlan) verdicts.set(entries, (byPlan = new WeakMap()));
  let decided = byPlan.get(plan);
  if (!decided) {
    decided = { masks: new Int32Array(entries.length).fill(-1), samples: new Array(entries.length), stamps: new Int32Array(entries.length), batch: 0 };
    byPlan.set(plan, decided);
  }
  return decided;
}

/** Judges entry `index` by every rule of the column, as checkColumnValues judges a value. */
function decide(decided: EntryVerdicts, entries: ArrayLike<unknown>, column: ReadableColumn, index: number): number {
  const value = entries[index];
  let mask = 0;
  if (value === null || value === undefined) mask = NULL_ENTRY;
  else {
    const { rules } = column.plan;
    for (let r = 0; r < rules.length; r++) if (rules[r]!.fails(value)) mask |= 1 << r;
    if (mask !== 0) decided.samples[index] = toSampleValue(value, column.plan.spec.type);
  }
  decided.masks[index] = mask;
  return mask;
}

/**
 * The span and newest value over the entries the batch's rows used: the least and greatest of a
 * set do not depend on the order it is walked in, so they are those of the rows.
 */
function observeUsed(rows: BatchRows, column: ReadableColumn, entries: ArrayLike<unknown>, used: readonly number[], ranged: boolean, freshness: boolean): void {
  const { spec } = column.plan;
  let least: Ordered = Infinity;
  let greatest: Ordered = -Infinity;
  let newest: Ordered = -Infinity;
  let seen = false;
  for (const index of used) {
    const value = entries[index] as Ordered;
    if (ranged) {
      if (below(value, least)) least = value;
      if (below(greatest, value)) greatest = value;
    }
    if (freshness && below(newest, value)) {
      newest = value;
      seen = true;
    }
  }
  if (ranged) rows.state.observeSpan(spec.name, least, greatest);
  if (seen) rows.state.observeNewest(newest, { file: rows.file, row: null, value: toSampleValue(newest, spec.type) });
}

/**
 * A one-column key's hashes, as keyHashAt makes them from the values: each entry hashed once,
 * then gathered through the indices (NaN for null and for unreadable rows).
 */
export function dictionaryKeyHashes(vector: DictionaryVector, skip: Uint8Array | undefined): Float64Array {
  const { entries, indices } = vector;
  let hashes = entryHashes.get(entries);
  if (!hashes) {
    hashes = new Float64Array(entries.length);
    for (let e = 0; e < entries.length; e++) {
      const value = entries[e];
      hashes[e] = value === null || value === undefined ? NaN : hashValue(value);
    }
    entryHashes.set(entries, hashes);
  }
  const out = new Float64Array(indices.length);
  for (let i = 0; i < indices.length; i++) {
    const index = indices[i]!;
    out[i] = index < 0 || skip?.[i] ? NaN : hashes[index]!;
  }
  return out;
}
