import type { CheckPlan } from './check-plan.js';
import type { ReadableColumn } from './schema-check.js';

/**
 * Columns whose values matter only as a key's identity: the whole of a one-column key (the grain
 * or a `unique` column), string or bytes, with no value rule, no freshness, no `required_when`
 * and no other column's `required_when` looking at it. A reader may hash these straight from the
 * file's bytes; nulls still show as NaN hashes, so `required` is checked all the same. A text
 * file's (CSV's) fields of a string column are the strings themselves (coercing only makes an
 * empty unquoted field null, which a reader's hash has as NaN), so `textFields` lets them in.
 */
export function hashOnlyColumns(plan: CheckPlan, readable: readonly ReadableColumn[], textFields = false): Set<string> {
  const keys = new Set<string>(plan.columns.filter((c) => c.spec.unique).map((c) => c.spec.name));
  if (plan.grain.length === 1) keys.add(plan.grain[0]!);
  // A part of a composite grain is hashed together with the other parts, from its value.
  if (plan.grain.length > 1) plan.grain.forEach((name) => keys.delete(name));
  const conditions = new Set(plan.columns.map((c) => c.spec.requiredWhen?.column));
  const only = new Set<string>();
  for (const { plan: column, coerce } of readable) {
    const { spec } = column;
    const textual = spec.type.kind === 'string' || spec.type.kind === 'binary';
    const valuesUnused = column.rules.length === 0 && !spec.requiredWhen && !conditions.has(spec.name) && plan.freshness?.column !== spec.name;
    if (keys.has(spec.name) && textual && (!coerce || textFields) && valuesUnused) only.add(spec.name);
  }
  return only;
}

/**
 * Columns whose values nothing reads: no value rule, no coercion, not a key part, not the
 * freshness column, not another column's `required_when` condition. Only their nulls matter
 * (`required`, `required_when`), so a reader may deliver presence alone (BatchOptions.presenceOnly).
 */
export function presenceOnlyColumns(plan: CheckPlan, readable: readonly ReadableColumn[]): Set<string> {
  const keys = new Set<string>([...plan.grain, ...plan.columns.filter((c) => c.spec.unique).map((c) => c.spec.name)]);
  const conditions = new Set(plan.columns.map((c) => c.spec.requiredWhen?.column));
  const only = new Set<string>();
  for (const { plan: column, coerce } of readable) {
    const { spec } = column;
    if (column.rules.length === 0 && !coerce && !keys.has(spec.name) && !conditions.has(spec.name) && plan.freshness?.column !== spec.name) only.add(spec.name);
  }
  return only;
}
