import { ExactValue } from '../contract/exact-value.js';
import { isVector, materialize, type ByteVector, type ColumnVector, type NumberVector } from '../formats/column-vector.js';
import type { ColumnBatch, UnparsedField } from '../formats/table-file.js';
import type { Sample, SampleValue } from '../report/report.js';
import { checkDictionaryColumn, dictionaryKeyHashes, dictionaryOf, valuesWanted } from './check-dictionary-column.js';
import { describeExpected, INVALID } from './coerce-value.js';
import { byteKeyHashes, checkByteColumn, compositeKeyHashes } from './check-byte-column.js';
import { keyHashAt } from './key-values.js';
import { checkNumberColumn } from './check-number-column.js';
import { keyHashesOf, type KeyPart } from './vector-keys.js';
import { lookUpReferenceRow, type ReferenceRowsPlan, type RowSource } from './reference-rows.js';
import { below, type Ordered } from './observed-ranges.js';
import type { KeySet, PartitionState } from './partition-state.js';
import { toSampleValue } from './sample-value.js';
import type { ReadableColumn } from './schema-check.js';

interface BatchContext {
  readonly state: PartitionState;
  readonly file: string;
  readonly batch: ColumnBatch;
  /** Checked values per decoded column; INVALID where a value did not parse. */
  readonly values: Map<string, ArrayLike<unknown>>;
  /** 1 at the index of a row that could not be read; absent when every row was read. */
  readonly skip: Uint8Array | undefined;
  /** Columns checked as doubles (check-number-column.ts) rather than through `values`. */
  readonly numbers: Map<string, NumberVector>;
}

/**
 * Checks one batch against every rule that looks at single values, and hashes its keys. Columns
 * the batch does not carry were proven by the row group's statistics and are done.
 */
export function checkBatch(state: PartitionState, columns: readonly ReadableColumn[], file: string, batch: ColumnBatch): void {
  const unreadable = batch.unreadableRows ?? [];
  const skip = unreadable.length > 0 ? new Uint8Array(batch.rowCount) : undefined;
  for (const bad of unreadable) {
    if (skip) skip[bad.row - batch.rowStart] = 1;
    state.rowFailed('unreadable', undefined, '{count} {row|rows} could not be read', { file, row: bad.row, value: `line ${bad.line}: ${bad.reason}` });
  }
  const context: BatchContext = { state, file, batch, values: new Map(), skip, numbers: new Map() };
  const decoded = columns.filter((c) => (c.absent ? absentMatters(c) : !batch.hashes?.has(c.plan.spec.name) && (!batch.group || batch.columns.has(c.plan.spec.name) || batch.vectors?.has(c.plan.spec.name))));
  // A column checked on its vector has its values made only for whoever reads them by row.
  const forms = new Map(decoded.map((column) => [column, checkedVector(context, column)] as const));
  for (const [column, vector] of forms) {
    if (!vector || valuesNeeded(state, column.plan.spec.name, vector)) context.values.set(column.plan.spec.name, vector?.kind === 'number' ? numberValues(vector) : coerceColumn(context, column));
  }
  for (const [column, vector] of forms) checkColumn(context, column, vector);
  for (const [name, hashes] of batch.hashes ?? []) checkHashedColumn(context, columns, name, hashes);
  if (batch.group) observeStatistics(context, columns);
  for (const keySet of state.keySets) hashKeys(context, keySet, columns);
  state.rows += batch.rowCount - unreadable.length;
  state.scanned += batch.rowCount;
}

/** A column the file lacks reads as nulls, which only a `required` (at warn) or `required_when` can fault, or as its default, which its rules judge. */
function absentMatters(column: ReadableColumn): boolean {
  return column.plan.absentValue !== null || column.plan.mustHaveValue || column.plan.spec.requiredWhen !== undefined;
}

/**
 * The vector a column is checked on, one rule type per loop (check-dictionary-column.ts,
 * check-number-column.ts, check-byte-column.ts), or undefined for its values row by row.
 */
function checkedVector(context: BatchContext, column: ReadableColumn): ColumnVector | undefined {
  const dictionary = dictionaryOf(context.batch, column);
  if (dictionary) return dictionary;
  const numbers = numberVectorOf(context, column);
  if (numbers) context.numbers.set(column.plan.spec.name, numbers);
  const vector = context.batch.vectors?.get(column.plan.spec.name);
  return numbers ?? (vector?.kind === 'bytes' ? vector : undefined);
}

/** Whether a column checked on its vector is also read by row: byte columns never are (byte-rules.ts keeps them from those readers). */
function valuesNeeded(state: PartitionState, name: string, vector: ColumnVector): boolean {
  if (vector.kind === 'bytes') return false;
  return vector.kind === 'number' ? numberValuesWanted(state, name) : valuesWanted(state, name);
}

function checkColumn(context: BatchContext, column: ReadableColumn, vector: ColumnVector | undefined): void {
  const { spec, mustHaveValue, rules } = column.plan;
  if (vector?.kind === 'dictionary') return checkDictionaryColumn(context, column, vector, requiredWhen(context, column));
  if (vector?.kind === 'bytes') return checkByteColumn({ ...context, rowStart: context.batch.rowStart, condition: requiredWhen(context, column) }, column, vector);
  if (vector?.kind === 'number') {
    const target = { name: spec.name, type: spec.type, rules, mustHaveValue, missing: missingDetail(spec.name), file: context.file, rowStart: context.batch.rowStart };
    return checkNumberColumn(context.state, target, vector);
  }
  checkColumnValues(context, column);
}

/**
 * A column a reader delivered as doubles (see column-vector.ts), checked as such where nothing
 * else is asked of its values: no parse, no unreadable row, no `required_when` on it.
 */
function numberVectorOf(context: BatchContext, column: ReadableColumn): NumberVector | undefined {
  const vector = context.batch.vectors?.get(column.plan.spec.name);
  if (vector?.kind !== 'number' || column.absent || column.coerce || context.skip || column.plan.spec.requiredWhen) return undefined;
  return vector;
}

/** Whether a rule reads a number column's values by row: a `required_when` on it, or the reference rows (composite keys take the vector). */
function numberValuesWanted(state: PartitionState, name: string): boolean {
  return state.plan.referenceRows !== undefined || state.plan.columns.some((c) => c.spec.requiredWhen?.column === name);
}

/** A number column's values by row: its doubles as they are when it has no null. */
function numberValues(vector: NumberVector): ArrayLike<unknown> {
  return vector.present ? materialize(vector) : vector.values;
}

function coerceColumn(context: BatchContext, column: ReadableColumn): ArrayLike<unknown> {
  const { spec } = column.plan;
  if (column.absent) return new Array(context.batch.rowCount).fill(column.plan.absentValue);
  const vector = context.batch.vectors?.get(spec.name);
  const raw = context.batch.columns.get(spec.name) ?? (vector ? materialize(vector) : new Array(context.batch.rowCount).fill(null));
  const detail = `{count} {row|rows} of ${spec.name} {is|are} not ${describeExpected(spec.type)}`;
  const unparsed = context.batch.parsed?.get(spec.name);
  if (unparsed) return parsedValues(context, raw, unparsed, spec.name, detail);
  const { coerce } = column;
  if (!coerce) return raw;
  const out = new Array<unknown>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    if (context.skip?.[i]) continue;
    const value = coerce(raw[i]);
    if (value === INVALID) context.state.rowFailed('type', spec.name, detail, sampleAt(context, i, toSampleValue(raw[i])));
    out[i] = value;
  }
  return out;
}

/** A column the reader parsed itself (ColumnBatch.parsed): the values are checked already. */
function parsedValues(context: BatchContext, values: ArrayLike<unknown>, unparsed: readonly UnparsedField[], column: string, detail: string): ArrayLike<unknown> {
  for (const { index, raw } of unparsed) {
    if (!context.skip?.[index]) context.state.rowFailed('type', column, detail, sampleAt(context, index, toSampleValue(raw)));
  }
  return values;
}

function checkColumnValues(context: BatchContext, column: ReadableColumn): void {
  const { spec, mustHaveValue, rules } = column.plan;
  const { state } = context;
  const values = context.values.get(spec.name) ?? [];
  if (values instanceof Float64Array) return checkNumbers(context, column, values);
  const condition = requiredWhen(context, column);
  const freshness = state.plan.freshness?.column === spec.name;
  const missing = missingDetail(spec.name);
  const missingWhen = spec.requiredWhen ? `${missing} although ${spec.requiredWhen.column} is ${spec.requiredWhen.in.join(' or ')}` : missing;
  // The batch's newest value, sampled once after the loop: rendering every new maximum of a
  // column that only grows (an updated_at) would format a timestamp per row.
  let newest: Ordered = -Infinity;
  let newestAt = -1;
  // A column with a range rule: its least and greatest value, two comparisons a value (see ValueSpan).
  const ranged = state.spans.has(spec.name);
  let least: Ordered = Infinity;
  let greatest: Ordered = -Infinity;
  for (let i = 0; i < values.length; i++) {
    if (context.skip?.[i]) continue;
    const value = values[i];
    if (value === INVALID) continue;
    if (value === null || value === undefined) {
      if (mustHaveValue) state.rowFailed('required', spec.name, missing, sampleAt(context, i, null));
      else if (condition?.(i)) state.rowFailed('required', spec.name, missingWhen, sampleAt(context, i, null));
      continue;
    }
    for (const rule of rules) {
      if (rule.fails(value)) state.rowFailed(rule.rule, spec.name, rule.detail, sampleAt(context, i, toSampleValue(value, spec.type)));
    }
    if (ranged) {
      if (below(value as Ordered, least)) least = value as Ordered;
      if (below(greatest, value as Ordered)) greatest = value as Ordered;
    }
    if (freshness && below(newest, value as Ordered)) {
      newest = value as Ordered;
      newestAt = i;
    }
  }
  if (ranged) state.observeSpan(spec.name, least, greatest);
  if (newestAt >= 0) state.observeNewest(newest, { file: context.file, row: null, value: toSampleValue(newest, spec.type) });
}

/**
 * A column a text reader parsed into a Float64Array: numbers only, no null or INVALID, so only
 * the rules run, on values read unboxed (a loop over any ArrayLike boxes every double it reads).
 */
function checkNumbers(context: BatchContext, column: ReadableColumn, values: Float64Array): void {
  const { spec, rules } = column.plan;
  const { state } = context;
  const freshness = state.plan.freshness?.column === spec.name;
  // A number-only variable stays an unboxed double; `number | undefined` would box each new maximum.
  let newest = -Infinity;
  let newestAt = -1;
  // Unboxed doubles like `newest`, NaN never taken (see ValueSpan); the batch's span joins the state's after the loop.
  const ranged = state.spans.has(spec.name);
  let least = Infinity;
  let greatest = -Infinity;
  for (let i = 0; i < values.length; i++) {
    if (context.skip?.[i]) continue;
    const value = values[i]!;
    for (const rule of rules) {
      if (rule.fails(value)) state.rowFailed(rule.rule, spec.name, rule.detail, sampleAt(context, i, toSampleValue(value, spec.type)));
    }
    if (ranged) {
      if (value < least) least = value;
      if (value > greatest) greatest = value;
    }
    if (freshness && value > newest) {
      newest = value;
      newestAt = i;
    }
  }
  if (ranged) state.observeSpan(spec.name, least, greatest);
  if (newestAt >= 0) state.observeNewest(newest, { file: context.file, row: null, value: toSampleValue(newest, spec.type) });
}

/** A key column read as hashes (see hash-only-columns.ts): only its nulls are left to check. */
function checkHashedColumn(context: BatchContext, columns: readonly ReadableColumn[], name: string, hashes: Float64Array): void {
  const column = columns.find((c) => c.plan.spec.name === name);
  if (!column?.plan.mustHaveValue) return;
  const missing = missingDetail(name);
  for (let i = 0; i < hashes.length; i++) {
    const hash = hashes[i]!;
    if (hash !== hash && !context.skip?.[i]) context.state.rowFailed('required', name, missing, sampleAt(context, i, null));
  }
}

/** For `required_when`: whether row i's condition column holds one of the listed values. */
function requiredWhen(context: BatchContext, column: ReadableColumn): ((row: number) => boolean) | undefined {
  const when = column.plan.spec.requiredWhen;
  // Holds only decoded columns: a condition column the file lacks, or that was not read, is absent.
  const other = when && context.values.get(when.column);
  if (!when || !other) return undefined;
  // Parquet INT64 values decode as bigint: a listed whole number must match those too.
  const listed = new Set<unknown>(when.in.flatMap((v): unknown[] => (typeof v === 'number' && Number.isSafeInteger(v) ? [v, BigInt(v)] : [v])));
  return (row) => listed.has(other[row]);
}

/** The newest freshness value of a row group whose column was proven, and so not decoded. */
function observeStatistics(context: BatchContext, columns: readonly ReadableColumn[]): void {
  const name = context.state.plan.freshness?.column;
  const column = columns.find((c) => c.plan.spec.name === name);
  if (!name || !column || context.values.has(name) || context.batch.vectors?.has(name)) return;
  const max = context.batch.group?.statistics.get(name)?.max;
  if (typeof max === 'number' || max instanceof ExactValue) context.state.observeNewest(max, { file: context.file, row: null, value: toSampleValue(max, column.plan.spec.type) });
}

function hashKeys(context: BatchContext, keySet: KeySet, readable: readonly ReadableColumn[]): void {
  const { hashes } = keySet;
  const reference = keySet.rule === 'grain' ? context.state.plan.referenceRows : undefined;
  const bytes = keySet.columns.length === 1 ? context.batch.vectors?.get(keySet.columns[0]!) : undefined;
  const hashed = keySet.columns.length === 1 ? (context.batch.hashes?.get(keySet.columns[0]!) ?? (bytes?.kind === 'bytes' ? byteKeyHashes(bytes, context.skip) : undefined)) : undefined;
  if (hashed) {
    hashes.pushAll(hashed);
    if (reference) lookUpHashed(context, hashed, reference, readable);
    return;
  }
  const vector = keySet.columns.length === 1 && !context.values.has(keySet.columns[0]!) ? context.batch.vectors?.get(keySet.columns[0]!) : undefined;
  if (vector?.kind === 'dictionary' && !reference) return hashes.pushAll(dictionaryKeyHashes(vector, context.skip));
  const vectors = keySet.columns.map((name) => context.numbers.get(name) ?? context.values.get(name) ?? context.batch.vectors?.get(name));
  if (vectors.some((part) => part === undefined)) return hashes.pushMissing(context.batch.rowCount);
  // Byte parts (byte-rules.ts: never with reference rows) are hashed with the others, numbers read by row.
  if (vectors.some((part) => isVector(part, 'bytes'))) return hashes.pushAll(compositeKeyHashes(vectors.map((part) => (isVector(part, 'number') ? numberValues(part) : part)) as (ArrayLike<unknown> | ByteVector)[], context.batch.rowCount, context.skip));
  if (!reference && keySet.columns.some((name) => context.numbers.has(name))) return hashes.pushAll(keyHashesOf(vectors as KeyPart[], context.batch.rowCount, context.skip));
  const parts = keySet.columns.map((name) => context.values.get(name));
  const columns = parts as ArrayLike<unknown>[];
  if (reference) return hashAndLookUp(context, keySet, columns, reference, readable);
  for (let i = 0; i < context.batch.rowCount; i++) hashes.push(context.skip?.[i] ? NaN : keyHashAt(columns, i));
}

/** The grain's hashes, each also looked up among the reference rows' keys: their lookup rides the grain pass (reference-rows.ts). */
function hashAndLookUp(context: BatchContext, keySet: KeySet, grain: ArrayLike<unknown>[], reference: ReferenceRowsPlan, readable: readonly ReadableColumn[]): void {
  const source = rowSource(context, grain, readable);
  for (let i = 0; i < context.batch.rowCount; i++) {
    const hash = context.skip?.[i] ? NaN : keyHashAt(grain, i);
    keySet.hashes.push(hash);
    if (hash === hash) lookUpReferenceRow(reference, source, hash, i);
  }
}

/** A grain hashed from the page bytes: the same lookup, its hits confirmed by value after the pass. */
function lookUpHashed(context: BatchContext, hashes: Float64Array, reference: ReferenceRowsPlan, readable: readonly ReadableColumn[]): void {
  const source = rowSource(context, undefined, readable);
  for (let i = 0; i < hashes.length; i++) {
    const hash = hashes[i]!;
    if (hash === hash && !context.skip?.[i]) lookUpReferenceRow(reference, source, hash, i);
  }
}

function rowSource(context: BatchContext, grain: ArrayLike<unknown>[] | undefined, readable: readonly ReadableColumn[]): RowSource {
  const absentValue = (name: string) => readable.find((c) => c.plan.spec.name === name)?.plan.absentValue ?? null;
  return { state: context.state, file: context.file, rowStart: context.batch.rowStart, values: context.values, grain, absentValue };
}

function missingDetail(column: string): string {
  return `{count} {row|rows} {has|have} no value for ${column}`;
}

function sampleAt(context: BatchContext, index: number, value: SampleValue): Sample {
  return { file: context.file, row: context.batch.rowStart + index, value };
}
