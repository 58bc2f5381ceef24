import type { ColumnSeverityRule, ColumnSpec } from '../contract/model.js';
import { exactBound } from '../contract/exact-bounds.js';
import { compareOrdered, type Ordered } from '../contract/exact-value.js';
import { formatBound } from '../contract/temporal.js';
import { loosenedClass, loosenedWhy, type ChangeId, type CompatMode, type RawChange } from './contract-diff.js';
import { referenceChange } from './reference-change.js';
import { columnRuleNote, weighed } from './rule-weight.js';

const TIGHTENED = 'data once valid is now rejected';

/**
 * The rules of a column that keeps its type (or widens it); each differing rule is one change,
 * weighed by the rule's severity (rule-weight.ts).
 */
export function ruleChanges(old: ColumnSpec, next: ColumnSpec, mode: CompatMode): RawChange[] {
  const note = (rule: ColumnSeverityRule) => columnRuleNote(rule, old, next);
  return [
    ...enumChanges(old, next, mode, note('enum')),
    ...boundChange('min', old, next, mode, note('min')),
    ...boundChange('max', old, next, mode, note('max')),
    ...notInFutureChange(old, next, mode, note('not_in_future')),
    ...lengthChange('min_length', old.minLength, next.minLength, next.name, mode, note('length')),
    ...lengthChange('max_length', old.maxLength, next.maxLength, next.name, mode, note('length')),
    ...patternChange(old, next, mode, note('pattern')),
    ...uniqueChange(old, next, mode, note('unique')),
    ...referenceChange(old, next, mode, note('references')),
  ];
}

function enumChanges(old: ColumnSpec, next: ColumnSpec, mode: CompatMode, note: string | undefined): RawChange[] {
  const name = next.name;
  if (!old.enum && !next.enum) return [];
  if (!old.enum) return [weighed('enum_value_removed', name, 'breaking', `"${name}" gained an enum ${list(next.enum)}`, 'any other value is now rejected', note)];
  if (!next.enum) return [weighed('enum_value_added', name, loosenedClass(mode), `"${name}" lost its enum ${list(old.enum)}: any value is accepted`, loosenedWhy(mode), note)];
  const before = new Set(old.enum.map(String));
  const after = new Set(next.enum.map(String));
  const removed = [...before].filter((v) => !after.has(v));
  const added = [...after].filter((v) => !before.has(v));
  const out: RawChange[] = [];
  if (removed.length) out.push(weighed('enum_value_removed', name, 'breaking', `"${name}" no longer accepts ${list(removed)}`, TIGHTENED, note));
  if (added.length) out.push(weighed('enum_value_added', name, loosenedClass(mode), `"${name}" now also accepts ${list(added)}`, loosenedWhy(mode), note));
  return out;
}

/** A higher min or a lower max, or one that appears, narrows what is valid; compared exactly (1e14 vs 100000000000000.001). */
function boundChange(key: 'min' | 'max', old: ColumnSpec, next: ColumnSpec, mode: CompatMode, note: string | undefined): RawChange[] {
  const [from, to] = [exactBound(old, key), exactBound(next, key)];
  if (from === undefined && to === undefined) return [];
  const order = from !== undefined && to !== undefined ? compareOrdered(to, from) : undefined;
  if (order === 0) return [];
  const tighter = from === undefined || (order !== undefined && (key === 'min' ? order > 0 : order < 0));
  const bound = (column: ColumnSpec, value: Ordered | undefined) => (value === undefined ? 'none' : formatBound(value, column.type));
  const text = `"${next.name}" ${key} ${bound(old, from)} → ${bound(next, to)}`;
  return [narrowOrWiden('range', next.name, tighter, text, mode, note)];
}

function notInFutureChange(old: ColumnSpec, next: ColumnSpec, mode: CompatMode, note: string | undefined): RawChange[] {
  if (old.notInFuture === next.notInFuture) return [];
  const text = `"${next.name}" not_in_future ${old.notInFuture} → ${next.notInFuture}`;
  return [narrowOrWiden('range', next.name, next.notInFuture, text, mode, note)];
}

function lengthChange(key: 'min_length' | 'max_length', from: number | undefined, to: number | undefined, name: string, mode: CompatMode, note: string | undefined): RawChange[] {
  if (from === to) return [];
  const tighter = from === undefined || (to !== undefined && (key === 'min_length' ? to > from : to < from));
  return [narrowOrWiden('length', name, tighter, `"${name}" ${key} ${from ?? 'none'} → ${to ?? 'none'}`, mode, note)];
}

function narrowOrWiden(kind: 'range' | 'length', column: string, tighter: boolean, text: string, mode: CompatMode, note: string | undefined): RawChange {
  if (tighter) return weighed(`${kind}_tightened` satisfies ChangeId, column, 'breaking', text, TIGHTENED, note);
  return weighed(`${kind}_loosened` satisfies ChangeId, column, loosenedClass(mode), text, loosenedWhy(mode), note);
}

/** Two regular expressions cannot be compared, so any new pattern may reject old data; only a dropped one is known to be looser. */
function patternChange(old: ColumnSpec, next: ColumnSpec, mode: CompatMode, note: string | undefined): RawChange[] {
  if (old.pattern === next.pattern) return [];
  const text = `"${next.name}" pattern ${quote(old.pattern)} → ${quote(next.pattern)}`;
  if (next.pattern === undefined) return [weighed('pattern_changed', next.name, loosenedClass(mode), text, loosenedWhy(mode), note)];
  return [weighed('pattern_changed', next.name, 'breaking', text, 'values the old pattern accepted may now be rejected', note)];
}

/** Dropping `unique` loosens: flagged for readers that dedup on it, breaking where the old version must accept new data. */
function uniqueChange(old: ColumnSpec, next: ColumnSpec, mode: CompatMode, note: string | undefined): RawChange[] {
  if (old.unique === next.unique) return [];
  if (next.unique) return [weighed('unique_added', next.name, 'breaking', `"${next.name}" must now be unique`, 'a partition with repeated values, once valid, is now rejected', note)];
  const breaking = loosenedClass(mode) === 'breaking';
  const why = breaking ? `readers of the old version reject the repeats it may now get (compat.mode ${mode})` : 'a reader that joins or dedups on it may now see repeats';
  return [weighed('unique_removed', next.name, breaking ? 'breaking' : 'flagged', `"${next.name}" need no longer be unique`, why, note)];
}

function quote(pattern: string | undefined): string {
  return pattern === undefined ? 'none' : `"${pattern}"`;
}

export function list(values: readonly (string | number)[] | undefined): string {
  return `[${(values ?? []).join(', ')}]`;
}
