import type { ColumnSpec } from '../contract/model.js';
import { formatBound } from '../contract/temporal.js';
import { change, loosenedClass, type ChangeId, type CompatMode, type RawChange } from './contract-diff.js';

const TIGHTENED = 'data once valid is now rejected';

/** Why a loosening is or is not breaking, so the reader of a CI log need not know the modes. */
export function loosenedWhy(mode: CompatMode): string {
  return loosenedClass(mode) === 'breaking'
    ? `readers of the old version may now get values they reject (compat.mode ${mode})`
    : 'old data stays valid';
}

/** The rules of a column that keeps its type (or widens it); each differing rule is one change. */
export function ruleChanges(old: ColumnSpec, next: ColumnSpec, mode: CompatMode): RawChange[] {
  return [
    ...enumChanges(old, next, mode),
    ...boundChange('min', old, next, mode),
    ...boundChange('max', old, next, mode),
    ...notInFutureChange(old, next, mode),
    ...lengthChange('min_length', old.minLength, next.minLength, next.name, mode),
    ...lengthChange('max_length', old.maxLength, next.maxLength, next.name, mode),
    ...patternChange(old, next, mode),
    ...uniqueChange(old, next),
  ];
}

function enumChanges(old: ColumnSpec, next: ColumnSpec, mode: CompatMode): RawChange[] {
  const name = next.name;
  if (!old.enum && !next.enum) return [];
  if (!old.enum) return [change('enum_value_removed', name, 'breaking', `"${name}" gained an enum: only ${list(next.enum)} are accepted, any other value is now rejected`)];
  if (!next.enum) return [change('enum_value_added', name, loosenedClass(mode), `"${name}" lost its enum ${list(old.enum)}: any value is accepted; ${loosenedWhy(mode)}`)];
  const before = new Set(old.enum.map(String));
  const after = new Set(next.enum.map(String));
  const removed = [...before].filter((v) => !after.has(v));
  const added = [...after].filter((v) => !before.has(v));
  const out: RawChange[] = [];
  if (removed.length) out.push(change('enum_value_removed', name, 'breaking', `"${name}" no longer accepts ${list(removed)}: ${TIGHTENED}`));
  if (added.length) out.push(change('enum_value_added', name, loosenedClass(mode), `"${name}" now also accepts ${list(added)}: ${loosenedWhy(mode)}`));
  return out;
}

/** A higher min or a lower max, or one that appears, narrows what is valid. */
function boundChange(key: 'min' | 'max', old: ColumnSpec, next: ColumnSpec, mode: CompatMode): RawChange[] {
  const [from, to] = [old[key], next[key]];
  if (from === to) return [];
  const tighter = from === undefined || (to !== undefined && (key === 'min' ? to > from : to < from));
  const bound = (column: ColumnSpec, value: number | undefined) => (value === undefined ? 'none' : formatBound(value, column.type));
  const text = `"${next.name}" ${key} ${bound(old, from)} → ${bound(next, to)}`;
  return [narrowOrWiden('range', next.name, tighter, text, mode)];
}

function notInFutureChange(old: ColumnSpec, next: ColumnSpec, mode: CompatMode): RawChange[] {
  if (old.notInFuture === next.notInFuture) return [];
  const text = `"${next.name}" not_in_future ${old.notInFuture} → ${next.notInFuture}`;
  return [narrowOrWiden('range', next.name, next.notInFuture, text, mode)];
}

function lengthChange(key: 'min_length' | 'max_length', from: number | undefined, to: number | undefined, name: string, mode: CompatMode): RawChange[] {
  if (from === to) return [];
  const tighter = from === undefined || (to !== undefined && (key === 'min_length' ? to > from : to < from));
  return [narrowOrWiden('length', name, tighter, `"${name}" ${key} ${from ?? 'none'} → ${to ?? 'none'}`, mode)];
}

function narrowOrWiden(kind: 'range' | 'length', column: string, tighter: boolean, text: string, mode: CompatMode): RawChange {
  if (tighter) return change(`${kind}_tightened` satisfies ChangeId, column, 'breaking', `${text}: ${TIGHTENED}`);
  return change(`${kind}_loosened` satisfies ChangeId, column, loosenedClass(mode), `${text}: ${loosenedWhy(mode)}`);
}

/** Two regular expressions cannot be compared, so any new pattern may reject old data; only a dropped one is known to be looser. */
function patternChange(old: ColumnSpec, next: ColumnSpec, mode: CompatMode): RawChange[] {
  if (old.pattern === next.pattern) return [];
  const text = `"${next.name}" pattern ${quote(old.pattern)} → ${quote(next.pattern)}`;
  if (next.pattern === undefined) return [change('pattern_changed', next.name, loosenedClass(mode), `${text}: ${loosenedWhy(mode)}`)];
  return [change('pattern_changed', next.name, 'breaking', `${text}: values the old pattern accepted may now be rejected`)];
}

function uniqueChange(old: ColumnSpec, next: ColumnSpec): RawChange[] {
  if (old.unique === next.unique) return [];
  if (next.unique) return [change('unique_added', next.name, 'breaking', `"${next.name}" must now be unique: a partition with repeated values, once valid, is now rejected`)];
  return [change('unique_removed', next.name, 'flagged', `"${next.name}" need no longer be unique: a reader that joins or dedups on it may now see repeats`)];
}

function quote(pattern: string | undefined): string {
  return pattern === undefined ? 'none' : `"${pattern}"`;
}

export function list(values: readonly (string | number)[] | undefined): string {
  return `[${(values ?? []).join(', ')}]`;
}
