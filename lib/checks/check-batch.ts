import type { ColumnBatch } from '../formats/table-file.js';
import type { SampleValue } from '../report/report.js';
import { INVALID } from './coerce-value.js';
import type { DuplicateKeys } from './duplicate-keys.js';
import type { PartitionState } from './partition-state.js';
import { hex, toSampleValue } from './sample-value.js';
import type { ReadableColumn } from './schema-check.js';
import { describeExpected } from './coerce-value.js';

interface BatchContext {
  readonly state: PartitionState;
  readonly file: string;
  readonly fileIndex: number;
  readonly batch: ColumnBatch;
  /** Coerced values per readable column; INVALID where a value did not parse. */
  readonly values: Map<string, ArrayLike<unknown>>;
  /** 1 at the index of a row that could not be read; absent when every row was read. */
  readonly skip: Uint8Array | undefined;
}

/** Checks one batch of rows against every rule that looks at single values or keys. */
export function checkBatch(state: PartitionState, columns: readonly ReadableColumn[], file: string, fileIndex: number, batch: ColumnBatch): void {
  const unreadable = batch.unreadableRows ?? [];
  const skip = unreadable.length > 0 ? new Uint8Array(batch.rowCount) : undefined;
  for (const bad of unreadable) {
    if (skip) skip[bad.row - batch.rowStart] = 1;
    state.log.add('unreadable', undefined, '{count} {row|rows} could not be read', { file, row: bad.row, value: `line ${bad.line}: ${bad.reason}` });
  }
  const values = new Map<string, ArrayLike<unknown>>();
  const context: BatchContext = { state, file, fileIndex, batch, values, skip };
  for (const column of columns) values.set(column.plan.spec.name, coerceColumn(context, column));
  for (const column of columns) checkColumnValues(context, column, columns);
  if (state.grain) checkKeys(context, state.grain, state.plan.grain);
  for (const [name, keys] of state.unique) checkKeys(context, keys, [name]);
  state.rows += batch.rowCount - unreadable.length;
}

function coerceColumn(context: BatchContext, column: ReadableColumn): ArrayLike<unknown> {
  const { spec } = column.plan;
  const raw = context.batch.columns.get(spec.name);
  if (!raw) return new Array(context.batch.rowCount).fill(null);
  const { coerce } = column;
  if (!coerce) return raw;
  const out = new Array<unknown>(raw.length);
  const detail = `{count} {row|rows} of ${spec.name} {is|are} not ${describeExpected(spec.type)}`;
  for (let i = 0; i < raw.length; i++) {
    if (context.skip?.[i]) continue;
    const value = coerce(raw[i]);
    if (value === INVALID) context.state.log.add('type', spec.name, detail, sampleAt(context, i, toSampleValue(raw[i])));
    out[i] = value;
  }
  return out;
}

function checkColumnValues(context: BatchContext, column: ReadableColumn, columns: readonly ReadableColumn[]): void {
  const { spec, mustHaveValue, rules } = column.plan;
  const values = context.values.get(spec.name) ?? [];
  const condition = requiredWhen(context, column, columns);
  const freshness = context.state.plan.freshness?.column === spec.name;
  const { state } = context;
  const missing = `{count} {row|rows} {has|have} no value for ${spec.name}`;
  const when = spec.requiredWhen;
  const missingWhen = when ? `${missing} although ${when.column} is ${when.in.join(' or ')}` : missing;
  for (let i = 0; i < values.length; i++) {
    if (context.skip?.[i]) continue;
    const value = values[i];
    if (value === INVALID) continue;
    if (value === null || value === undefined) {
      if (mustHaveValue) context.state.log.add('required', spec.name, missing, sampleAt(context, i, null));
      else if (condition?.(i)) context.state.log.add('required', spec.name, missingWhen, sampleAt(context, i, null));
      continue;
    }
    for (const rule of rules) {
      if (rule.fails(value)) context.state.log.add(rule.rule, spec.name, rule.detail, sampleAt(context, i, toSampleValue(value, spec.type)));
    }
    if (freshness && (!state.newest || (value as number) > state.newest.value)) {
      state.newest = { value: value as number, sample: sampleAt(context, i, toSampleValue(value, spec.type)) };
    }
  }
}

/** For `required_when`: whether row i's condition column holds one of the listed values. */
function requiredWhen(context: BatchContext, column: ReadableColumn, columns: readonly ReadableColumn[]): ((row: number) => boolean) | undefined {
  const when = column.plan.spec.requiredWhen;
  if (!when || !columns.some((c) => c.plan.spec.name === when.column)) return undefined;
  const listed = new Set<unknown>(when.in);
  const other = context.values.get(when.column) ?? [];
  return (row) => listed.has(other[row]);
}

function checkKeys(context: BatchContext, keys: DuplicateKeys, names: readonly string[]): void {
  const parts = names.map((name) => context.values.get(name));
  if (parts.some((part) => part === undefined)) return;
  const columns = parts as ArrayLike<unknown>[];
  for (let i = 0; i < context.batch.rowCount; i++) {
    if (context.skip?.[i]) continue;
    const key = keyAt(columns, i);
    if (key === undefined) continue;
    keys.observe(key, context.fileIndex, context.batch.rowStart + i, () => displayKey(context, names, columns, i));
  }
}

/** A key usable as a Map key; undefined when a part is null or did not parse (reported elsewhere). */
function keyAt(columns: ArrayLike<unknown>[], row: number): unknown {
  if (columns.length === 1) return keyPart(columns[0]![row]);
  let key = '';
  for (const column of columns) {
    const part = keyPart(column[row]);
    if (part === undefined) return undefined;
    // Length-prefixed parts cannot run into each other, whatever characters they hold.
    const text = String(part);
    key += `${text.length}:${typeof part === 'string' ? 's' : 'n'}${text}`;
  }
  return key;
}

function keyPart(value: unknown): unknown {
  if (value === null || value === undefined || value === INVALID) return undefined;
  if (value instanceof Uint8Array) return `0x${hex(value)}`;
  return value;
}

function displayKey(context: BatchContext, names: readonly string[], columns: ArrayLike<unknown>[], row: number): SampleValue {
  const spec = (name: string) => context.state.plan.columns.find((c) => c.spec.name === name)?.spec.type;
  if (names.length === 1) return toSampleValue(columns[0]![row], spec(names[0]!));
  return Object.fromEntries(names.map((name, i) => [name, toSampleValue(columns[i]![row], spec(name))]));
}

function sampleAt(context: BatchContext, index: number, value: SampleValue) {
  return { file: context.file, row: context.batch.rowStart + index, value };
}
