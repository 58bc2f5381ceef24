import { GateError } from '../errors.js';
import type { ColumnType } from '../contract/column-type.js';
import type { ColumnSpec, Contract, ReferenceRow, Severity } from '../contract/model.js';
import type { Sample, SampleValue } from '../report/report.js';
import { coerceFor, INVALID } from './coerce-value.js';
import { keyHashAt } from './key-values.js';
import { referenceKey } from './plan-facts.js';
import { toSampleValue } from './sample-value.js';
import type { ViolationLog } from './violation-log.js';

/**
 * `reference_rows` as the engine runs them. How they are read: not by a second scan. The grain
 * pass (check-batch.ts) hashes every row's key anyway; with reference rows in the contract, each
 * hash is looked up in `byHash`, one Map lookup a row, and a hit is judged right there, from the
 * values the batch decoded. So the expected columns must be decoded: with reference rows they are
 * not settled by footer statistics (settle-by-statistics.ts), which prove bounds of a row group but
 * not the value of one row. Without reference rows nothing of this runs.
 *
 * A hit is confirmed by the key's value, so a hash collision never fails a good partition. A
 * decoded grain is compared at once. A one-column string grain hashed straight from the page bytes
 * (hash-only-columns.ts) has no value in the batch, and decoding it for every row would cost more
 * than the whole pass (about 5x on 1M rows): its hits are kept pending, their findings made, and
 * after the pass only those rows' keys are read again (confirmReferenceRows), as confirming
 * duplicates does.
 *
 * What a slice finds is plain data (violations in its log, the indices of the rows it saw), so
 * slices checked in worker threads or fan-out map steps merge like the rest (mergeSlices), and
 * whether a required row was seen anywhere is judged once, after the merge.
 */
export interface ReferenceRowsPlan {
  readonly rows: readonly ReferenceRowPlan[];
  /** The rows by the hash of their key, as keyHashAt hashes a data row's key. */
  readonly byHash: ReadonlyMap<number, readonly ReferenceRowPlan[]>;
  /** Every column an expectation names: decoded in every batch. */
  readonly columns: readonly string[];
}

export interface ReferenceRowPlan {
  readonly index: number;
  /** e.g. `order_id=1001`, for messages. */
  readonly label: string;
  /** The key's values in the engine's representation, and their canonical text (plan-facts.ts). */
  readonly keyText: readonly string[];
  readonly expect: readonly ExpectedPlan[];
  readonly required: boolean;
  readonly severity?: Severity;
}

interface ExpectedPlan {
  readonly column: string;
  readonly type: ColumnType;
  readonly value: unknown;
  readonly text: string;
  readonly absolute?: number;
  readonly relative?: number;
}

export function referenceRowsPlan(contract: Contract): ReferenceRowsPlan | undefined {
  const rows = contract.referenceRows ?? [];
  if (rows.length === 0) return undefined;
  const columns = new Map(contract.schema.columns.map((c) => [c.name, c]));
  const planned = rows.map((row, index) => planRow(row, index, columns));
  const byHash = new Map<number, ReferenceRowPlan[]>();
  for (const { plan, hash } of planned) byHash.set(hash, [...(byHash.get(hash) ?? []), plan]);
  const names = [...new Set(rows.flatMap((row) => row.expect.map((cell) => cell.column)))];
  return { rows: planned.map((p) => p.plan), byHash, columns: names };
}

function planRow(row: ReferenceRow, index: number, columns: ReadonlyMap<string, ColumnSpec>): { plan: ReferenceRowPlan; hash: number } {
  const key = row.key.map((cell) => checked(cell.value, columns.get(cell.column)!.type));
  const expect = row.expect.map((cell) => {
    const { type } = columns.get(cell.column)!;
    const value = checked(cell.value, type);
    return { column: cell.column, type, value, text: canonical(value), ...(cell.absolute === undefined ? {} : { absolute: cell.absolute }), ...(cell.relative === undefined ? {} : { relative: cell.relative }) };
  });
  const label = row.key.map((cell) => `${cell.column}=${String(cell.value)}`).join(', ');
  const plan = { index, label, keyText: key.map(canonical), expect, required: row.required, ...(row.severity ? { severity: row.severity } : {}) };
  return { plan, hash: keyHashAt(key.map((value) => [value]), 0) };
}

/** The loader checked the value against its type: it reads as the files' values do. */
function checked(value: unknown, type: ColumnType): unknown {
  const read = coerceFor('dynamic', type)(value);
  if (read === INVALID || read === null) throw new GateError('internal', `reference value ${JSON.stringify(value)} is not of type ${type.kind}: the loader should have refused it`);
  return read;
}

const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** One spelling per value: a key read as bytes (binary) compares with the text the contract wrote. */
export function canonical(value: unknown): string {
  return value instanceof Uint8Array ? UTF8.decode(value) : referenceKey(value);
}

/** A batch's rows as check-batch.ts holds them: decoded values by column, and what a column the file lacks reads as. */
export interface RowSource {
  readonly state: ReferenceRowState;
  readonly file: string;
  readonly rowStart: number;
  readonly values: ReadonlyMap<string, ArrayLike<unknown>>;
  /** The grain's decoded values; undefined when the grain was hashed from the bytes (hits then wait for confirmation). */
  readonly grain: readonly ArrayLike<unknown>[] | undefined;
  readonly absentValue: (column: string) => unknown;
}

/** The part of the partition's state (partition-state.ts) a hit changes. */
export interface ReferenceRowState {
  readonly referencePending: Map<number, PendingReferenceRow[]>;
  readonly referenceRowsSeen: Set<number>;
  readonly log: ViolationLog;
}

/** A hit whose key is known only by its hash: judged, and logged once the key is read again and matches. */
export interface PendingReferenceRow {
  /** Row within the file. */
  readonly row: number;
  readonly index: number;
  readonly findings: readonly { readonly column: string; readonly detail: string; readonly sample: Sample }[];
}

/** Row `i` of the batch hashed to `hash`: if a reference row has that key, by value, judge the row by it. */
export function lookUpReferenceRow(plan: ReferenceRowsPlan, source: RowSource, hash: number, i: number): void {
  const candidates = plan.byHash.get(hash);
  if (!candidates) return;
  const { grain, state } = source;
  for (const row of candidates) {
    if (grain && !row.keyText.every((text, part) => canonical(grain[part]![i]) === text)) continue; // a hash collision
    const findings = row.expect.flatMap((expected) => judgeValue(row, expected, source, i));
    if (!grain) {
      // The slice does not know its file's index: its hits wait under -1 (see check-slice.ts).
      state.referencePending.set(-1, [...(state.referencePending.get(-1) ?? []), { row: source.rowStart + i, index: row.index, findings }]);
      continue;
    }
    state.referenceRowsSeen.add(row.index);
    for (const f of findings) state.log.addTotal('reference_value', f.column, f.detail, 1, [f.sample], row.severity);
  }
}

function judgeValue(row: ReferenceRowPlan, expected: ExpectedPlan, source: RowSource, i: number): PendingReferenceRow['findings'] {
  const column = source.values.get(expected.column);
  const found = column === undefined ? source.absentValue(expected.column) : column[i];
  // A value that is not of the column's type is the type rule's finding, made already.
  if (found === INVALID || matches(expected, found)) return [];
  const shown = show(found, expected.type);
  const detail = `reference row ${row.label}: ${expected.column} is ${shown === null ? 'null' : JSON.stringify(shown)}, expected ${JSON.stringify(show(expected.value, expected.type))}${within(expected)}`;
  return [{ column: expected.column, detail, sample: { file: source.file, row: source.rowStart + i, value: shown } }];
}

/**
 * Exactly, as canonical text (a decimal's every digit, a time to its last fraction); a float32
 * as the float32 the expected value rounds to. With a tolerance: |found − expected| at most the
 * wider of `absolute` and `relative` × |expected|, less a double's rounding of the difference
 * itself (100.01 − 100 is 0.010000000000005116 in doubles, which is within 0.01).
 */
function matches(expected: ExpectedPlan, found: unknown): boolean {
  if (found === null || found === undefined) return false;
  if (expected.absolute === undefined && expected.relative === undefined) {
    if (expected.type.kind === 'float32') return Math.fround(Number(found)) === Math.fround(Number(expected.value));
    return canonical(found) === expected.text;
  }
  const [want, got] = [Number(expected.value), Number(found)];
  const bound = Math.max(expected.absolute ?? 0, (expected.relative ?? 0) * Math.abs(want));
  return Math.abs(got - want) - bound <= 1e-12 * Math.max(1, Math.abs(want), Math.abs(got));
}

function within(expected: ExpectedPlan): string {
  const parts = [expected.absolute === undefined ? undefined : `±${expected.absolute}`, expected.relative === undefined ? undefined : `±${expected.relative * 100}%`].filter((p) => p !== undefined);
  return parts.length > 0 ? ` within ${parts.join(' or ')}` : '';
}

/** A decimal shown to its scale, as the producer and the contract write it (108.00, not 108). */
function show(value: unknown, type: ColumnType): SampleValue {
  if (type.kind === 'decimal' && typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e15) return value.toFixed(type.scale);
  return toSampleValue(value, type);
}
