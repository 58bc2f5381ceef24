import type { ColumnReference, ColumnSpec } from '../contract/model.js';
import { loosenedClass, loosenedWhy, type CompatMode, type RawChange } from './contract-diff.js';
import { weighed } from './rule-weight.js';

/**
 * `references` bounds a column's values by another dataset's, so it tightens and loosens like an
 * enum: one that appears rejects values once valid, one that goes accepts more. Another target
 * (contract, column, major or pinned partition) holds other values, which may lack some the old
 * one had: breaking, as a changed pattern is.
 */
export function referenceChange(old: ColumnSpec, next: ColumnSpec, mode: CompatMode, note: string | undefined): RawChange[] {
  const [from, to] = [old.references, next.references];
  const name = next.name;
  if (sameReference(from, to)) return [];
  if (!from && to) return [weighed('reference_added', name, 'breaking', `"${name}" now references ${describeReference(to)}`, 'a value missing there, once valid, is now rejected', note)];
  if (from && !to) return [weighed('reference_removed', name, loosenedClass(mode), `"${name}" no longer references ${describeReference(from)}`, loosenedWhy(mode), note)];
  const text = `"${name}" references ${describeReference(from)} → ${describeReference(to)}`;
  return [weighed('reference_changed', name, 'breaking', text, 'values the old target holds may be missing from the new one, and are then rejected', note)];
}

function sameReference(a: ColumnReference | undefined, b: ColumnReference | undefined): boolean {
  if (!a || !b) return a === b;
  return a.contract === b.contract && a.column === b.column && a.major === b.major && a.partition === b.partition;
}

/** e.g. `customers.customer_id (v2, partition dt=2026-11-30)`; the defaults are left unsaid. */
export function describeReference(reference: ColumnReference | undefined): string {
  if (!reference) return 'nothing';
  const pins = [reference.major === undefined ? undefined : `v${reference.major}`, reference.partition === undefined ? undefined : `partition ${reference.partition}`];
  const said = pins.filter((p) => p !== undefined);
  return `${reference.contract}.${reference.column}${said.length ? ` (${said.join(', ')})` : ''}`;
}
