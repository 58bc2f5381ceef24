import type { ColumnSpec, Severity } from '../contract/model.js';
import { loosenedClass, type CompatMode, type RawChange } from './contract-diff.js';
import { list } from './rule-changes.js';
import { columnSeverity, warnNote, weighed } from './rule-weight.js';

/** How often a column must hold a value: a ladder, so a move up is stricter and a move down looser. */
type Need = { readonly level: 0 } | { readonly level: 1; readonly column: string; readonly values: ReadonlySet<string> } | { readonly level: 2 };

function need(column: ColumnSpec): Need {
  if (column.required) return { level: 2 };
  if (column.requiredWhen) return { level: 1, column: column.requiredWhen.column, values: new Set(column.requiredWhen.in.map(String)) };
  return { level: 0 };
}

function describe(column: ColumnSpec): string {
  if (column.required) return 'required';
  if (column.requiredWhen) return `required when ${column.requiredWhen.column} in ${list(column.requiredWhen.in.map(String))}`;
  return 'optional';
}

/**
 * `required` and `required_when` together: one change, stricter or looser, weighed by the severity
 * of each. Looser is a loosening like any other: harmless to old data, but under forward and full
 * the old version, which rejects the nulls now allowed, must still accept new data.
 */
export function requirednessChange(old: ColumnSpec, next: ColumnSpec, mode: CompatMode): RawChange | undefined {
  const stricter = compare(need(old), need(next));
  if (stricter === undefined) return undefined;
  const text = `"${next.name}" went from ${describe(old)} to ${describe(next)}`;
  const note = warnNote('required', needSeverity(old), needSeverity(next));
  if (stricter) return weighed('became_required', next.name, 'breaking', text, 'rows without a value, once valid, are now rejected', note);
  const breaking = loosenedClass(mode) === 'breaking';
  const why = breaking ? `readers of the old version reject the nulls it may now get (compat.mode ${mode})` : 'readers that assumed a value may now get nulls';
  return weighed('became_optional', next.name, breaking ? 'breaking' : 'flagged', text, why, note);
}

/** The severity of whichever of `required` and `required_when` the column declares. */
function needSeverity(column: ColumnSpec): Severity | undefined {
  if (column.required) return columnSeverity(column, 'required');
  return column.requiredWhen ? columnSeverity(column, 'required_when') : undefined;
}

/** true: stricter, false: looser, undefined: the same. A condition on another column counts as stricter, as its rows are not comparable. */
function compare(from: Need, to: Need): boolean | undefined {
  if (from.level !== to.level) return to.level > from.level;
  if (from.level !== 1 || to.level !== 1) return undefined;
  if (from.column !== to.column) return true;
  const gained = [...to.values].some((v) => !from.values.has(v));
  const lost = [...from.values].some((v) => !to.values.has(v));
  return gained ? true : lost ? false : undefined;
}
