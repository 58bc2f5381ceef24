import type { ColumnSpec } from '../contract/model.js';
import { loosenedClass, type CompatMode, type RawChange } from './contract-diff.js';
import { columnSeverity, warnNote, weighed } from './rule-weight.js';

/**
 * A column's `default` is what rows without the column read as (a file written before it, a JSON
 * line without the key). On a column that needs a value, gaining one lets such rows through, a
 * loosening; losing one rejects them, breaking. Elsewhere it changes only what absent rows read as.
 */
export function defaultChange(old: ColumnSpec, next: ColumnSpec, mode: CompatMode): RawChange[] {
  if (JSON.stringify(old.default) === JSON.stringify(next.default)) return [];
  const text = `"${next.name}" default ${show(old.default)} → ${show(next.default)}`;
  const needs = (column: ColumnSpec) => column.required || column.requiredWhen !== undefined;
  const severity = (column: ColumnSpec) => (needs(column) ? columnSeverity(column, column.required ? 'required' : 'required_when') : undefined);
  const note = warnNote('required', severity(old), severity(next));
  if (needs(next) && next.default === undefined) {
    return [weighed('default_changed', next.name, 'breaking', text, 'rows without the column, once read as the default, now lack a required value', note)];
  }
  if (needs(next) && old.default === undefined && needs(old)) {
    const cls = loosenedClass(mode);
    const why = cls === 'breaking' ? `readers of the old version reject rows without the column, which are now valid (compat.mode ${mode})` : `rows without the column now read as ${show(next.default)}`;
    return [weighed('default_changed', next.name, cls, text, why, note)];
  }
  return [weighed('default_changed', next.name, 'flagged', text, 'rows without the column read as another value', undefined)];
}

function show(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}
