import { formatColumnType } from '../contract/column-type.js';
import type { ColumnSpec, Contract } from '../contract/model.js';
import { change, type CompatMode, type RawChange } from './contract-diff.js';
import { defaultChange } from './default-change.js';
import { requirednessChange } from './requiredness-change.js';
import { ruleChanges } from './rule-changes.js';
import { columnSeverity } from './rule-weight.js';
import { columnSeverityChanges } from './severity-changes.js';
import { isWidening, sameType, typeChange } from './type-change.js';

/** Every change of `schema.columns`: removed columns in old order, then changed, then added. */
export function columnChanges(old: Contract, next: Contract, mode: CompatMode): RawChange[] {
  const nextByName = new Map(next.schema.columns.map((c) => [c.name, c]));
  const oldNames = new Set(old.schema.columns.map((c) => c.name));
  const removed = old.schema.columns.filter((c) => !nextByName.has(c.name));
  const added = next.schema.columns.filter((c) => !oldNames.has(c.name));
  const renames = likelyRenames(removed, added);
  const kept = old.schema.columns.flatMap((c) => {
    const now = nextByName.get(c.name);
    return now ? [changesOfColumn(c, now, { old, next }, mode)] : [];
  });
  return [
    ...removed.map((c) => removedChange(c, renames.get(c.name))),
    ...kept.flat(),
    ...added.map((c) => addedChange(c, old, mode, [...renames].find(([, to]) => to === c.name)?.[0])),
  ];
}

function changesOfColumn(old: ColumnSpec, next: ColumnSpec, contracts: { old: Contract; next: Contract }, mode: CompatMode): RawChange[] {
  const type = typeChange(next.name, old.type, next.type, mode);
  // Rules of an unrelated new type (an enum on what is now a number) would only repeat the type change.
  const comparable = sameType(old.type, next.type) || isWidening(old.type, next.type);
  const required = requirednessChange(old, next, mode);
  const severities = columnSeverityChanges(old, next, contracts, mode);
  const described = old.description === next.description ? [] : [change('description_changed', next.name, 'cosmetic', `"${next.name}" has a new description`)];
  return [...(type ? [type] : []), ...(required ? [required] : []), ...defaultChange(old, next, mode), ...(comparable ? ruleChanges(old, next, mode) : []), ...severities, ...described];
}

/**
 * A removed and an added column of the same type, each the only candidate of the other, are
 * likely one column renamed. Contracts have no rename key, so both halves stay breaking.
 */
function likelyRenames(removed: readonly ColumnSpec[], added: readonly ColumnSpec[]): Map<string, string> {
  const renames = new Map<string, string>();
  for (const from of removed) {
    const candidates = added.filter((to) => sameType(from.type, to.type));
    const [to] = candidates;
    if (candidates.length !== 1 || !to) continue;
    if (removed.filter((other) => sameType(other.type, to.type)).length === 1) renames.set(from.name, to.name);
  }
  return renames;
}

function removedChange(column: ColumnSpec, renamedTo: string | undefined): RawChange {
  const rename = renamedTo === undefined ? '' : ` (likely renamed to "${renamedTo}": one ${formatColumnType(column.type)} column removed and one added)`;
  return change('column_removed', column.name, 'breaking', `column "${column.name}" was removed${rename}: readers of it find nothing`);
}

function addedChange(column: ColumnSpec, old: Contract, mode: CompatMode, renamedFrom: string | undefined): RawChange {
  const rename = renamedFrom === undefined ? '' : ` (likely a rename of "${renamedFrom}": one ${formatColumnType(column.type)} column removed and one added)`;
  const text = `column "${column.name}" was added${rename}`;
  const needed = column.required || column.requiredWhen !== undefined;
  // A warn requirement reports the rows written before the column existed and publishes them.
  const warned = columnSeverity(column, column.required ? 'required' : 'required_when') === 'warn';
  if (needed && column.default === undefined && !warned) {
    return change('column_added', column.name, 'breaking', `${text}: it is required with no default, so data written before it is now invalid`);
  }
  if ((mode === 'forward' || mode === 'full') && rejectsUndeclared(old)) {
    return change('column_added', column.name, 'breaking', `${text}: the old version rejects columns it does not declare (compat.mode ${mode})`);
  }
  const why = !needed ? 'it is optional' : column.default !== undefined ? `old rows read as its default ${JSON.stringify(column.default)}` : 'it is required at severity warn, so data written before it is published with a warning';
  return change('column_added', column.name, 'non-breaking', `${text}: ${why}`);
}

/** `reject` at severity warn only reports an undeclared column, as `warn` does. */
function rejectsUndeclared(contract: Contract): boolean {
  return contract.schema.extraColumns === 'reject' && contract.schema.severity?.extra_columns !== 'warn';
}
