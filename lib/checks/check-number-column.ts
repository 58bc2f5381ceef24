import type { ColumnType } from '../contract/column-type.js';
import type { NumberVector } from '../formats/column-vector.js';
import { MAX_SAMPLES, type Sample } from '../report/report.js';
import type { PartitionState } from './partition-state.js';
import { toSampleValue } from './sample-value.js';
import type { ValueRule } from './value-rules.js';

/** What the loop needs of a column and its batch. */
export interface NumberColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly rules: readonly ValueRule[];
  /** Whether a null is a `required` violation (its message `missing`). */
  readonly mustHaveValue: boolean;
  readonly missing: string;
  readonly file: string;
  /** Row index within the file of the vector's first row. */
  readonly rowStart: number;
}

/** Failing rows of one rule (or of `required`), ascending; reused from batch to batch. */
let lists: Int32Array[] = [];

/**
 * Checks a column of doubles (see column-vector.ts): one loop over the whole vector per rule,
 * with the rule's test inline (ValueRule.number), no call or value made per row. Failing rows
 * are gathered per rule and then reported in row order, each row's rules in their order, so
 * counts, samples, the order findings are first seen in and the rows withheld are those the
 * per-value loop makes. The span and the newest value are taken as it takes them: NaN never.
 */
export function checkNumberColumn(state: PartitionState, column: NumberColumn, vector: NumberVector): void {
  const { rules } = column;
  const found = new Int32Array(rules.length + 1);
  ensureLists(rules.length + 1, vector.values.length);
  if (column.mustHaveValue && vector.present) found[0] = nullRows(vector.present, lists[0]!);
  for (let r = 0; r < rules.length; r++) found[r + 1] = failingRows(rules[r]!, vector, lists[r + 1]!);
  report(state, column, vector, found);
  observe(state, column, vector);
}

function ensureLists(count: number, rows: number): void {
  const size = Math.max(rows, lists[0]?.length ?? 0);
  if (lists.length < count || (lists[0]?.length ?? 0) < rows) lists = Array.from({ length: Math.max(count, lists.length) }, () => new Int32Array(size));
}

function nullRows(present: Uint8Array, out: Int32Array): number {
  let found = 0;
  for (let i = 0; i < present.length; i++) if (present[i] === 0) out[found++] = i;
  return found;
}

/** Rows whose value fails the rule, into `out`; their number. */
function failingRows(rule: ValueRule, vector: NumberVector, out: Int32Array): number {
  const test = rule.number;
  if (test?.kind === 'nan') return nanRows(vector, out);
  if (test?.kind === 'beyond') return test.side === 1 ? aboveRows(rule, test.at, vector, out) : belowRows(rule, test.at, vector, out);
  const { values, present } = vector;
  let found = 0;
  for (let i = 0; i < values.length; i++) if ((present === undefined || present[i] === 1) && rule.fails(values[i])) out[found++] = i;
  return found;
}

function nanRows({ values, present }: NumberVector, out: Int32Array): number {
  let found = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value !== value && (present === undefined || present[i] === 1)) out[found++] = i;
  }
  return found;
}

/** Values above `at` fail; below it pass, in one comparison; `fails` decides one on it and NaN. */
function aboveRows(rule: ValueRule, at: number, { values, present }: NumberVector, out: Int32Array): number {
  let found = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value < at || (present !== undefined && present[i] === 0)) continue;
    if (value > at || rule.fails(value)) out[found++] = i;
  }
  return found;
}

function belowRows(rule: ValueRule, at: number, { values, present }: NumberVector, out: Int32Array): number {
  let found = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value > at || (present !== undefined && present[i] === 0)) continue;
    if (value < at || rule.fails(value)) out[found++] = i;
  }
  return found;
}

/**
 * The lists' findings as the per-value loop logs them. Without rows to withhold (no tolerance),
 * only which entry is first seen matters besides counts and samples: each list is logged at once,
 * in the order of its first row (a per-row log.add costs a key string a row: 40 % nulls made it
 * the largest cost of a run). With them, row by row (reportRows).
 */
function report(state: PartitionState, column: NumberColumn, vector: NumberVector, found: Int32Array): void {
  if (state.invalid) return reportRows(state, column, vector, found);
  const order = [...found.keys()].filter((l) => found[l]! > 0).sort((a, b) => lists[a]![0]! - lists[b]![0]! || a - b);
  for (const l of order) {
    const rows = lists[l]!.subarray(0, Math.min(found[l]!, MAX_SAMPLES));
    const rule = l === 0 ? undefined : column.rules[l - 1]!;
    const samples = Array.from(rows, (row) => sampleAt(column, row, rule ? toSampleValue(vector.values[row], column.type) : null));
    state.log.addTotal(rule?.rule ?? 'required', column.name, rule?.detail ?? column.missing, found[l]!, samples);
  }
}

/** The lists' rows in row order, a row's findings in list order (`required`, then the rules). */
function reportRows(state: PartitionState, column: NumberColumn, vector: NumberVector, found: Int32Array): void {
  const next = new Int32Array(found.length);
  for (;;) {
    let list = -1;
    let row = Infinity;
    for (let l = 0; l < found.length; l++) {
      if (next[l]! < found[l]! && lists[l]![next[l]!]! < row) {
        row = lists[l]![next[l]!]!;
        list = l;
      }
    }
    if (list < 0) return;
    next[list]!++;
    if (list === 0) state.rowFailed('required', column.name, column.missing, sampleAt(column, row, null));
    else {
      const rule = column.rules[list - 1]!;
      state.rowFailed(rule.rule, column.name, rule.detail, sampleAt(column, row, toSampleValue(vector.values[row], column.type)));
    }
  }
}

/** The batch's span (for a range rule) and newest value (for freshness), as the per-value loop takes them. */
function observe(state: PartitionState, column: NumberColumn, { values, present }: NumberVector): void {
  const ranged = state.spans.has(column.name);
  const freshness = state.plan.freshness?.column === column.name;
  if (!ranged && !freshness) return;
  let least = Infinity;
  let greatest = -Infinity;
  let newestAt = -1;
  for (let i = 0; i < values.length; i++) {
    if (present !== undefined && present[i] === 0) continue;
    const value = values[i]!;
    if (value < least) least = value;
    if (value > greatest) {
      greatest = value;
      newestAt = i;
    }
  }
  if (ranged) state.observeSpan(column.name, least, greatest);
  if (freshness && newestAt >= 0) state.observeNewest(greatest, { file: column.file, row: null, value: toSampleValue(greatest, column.type) });
}

function sampleAt(column: NumberColumn, index: number, value: Sample['value']): Sample {
  return { file: column.file, row: column.rowStart + index, value };
}
