import type { Contract, Sla } from '../contract/model.js';
import { change, loosenedClass, type CompatMode, type RawChange } from './contract-diff.js';
import { list, loosenedWhy } from './rule-changes.js';

/** Changes of the dataset as a whole, outside the columns. */
export function datasetChanges(old: Contract, next: Contract, mode: CompatMode): RawChange[] {
  return [...grainChange(old, next), ...partitionChange(old, next), ...extraColumnsChange(old, next, mode), ...slaChange(old.sla, next.sla), ...statusChange(old, next), ...descriptionChange(old, next)];
}

/** The grain is a set: listing the same key columns in another order names the same key. */
function grainChange(old: Contract, next: Contract): RawChange[] {
  const same = old.schema.grain.length === next.schema.grain.length && old.schema.grain.every((c) => next.schema.grain.includes(c));
  if (same) return [];
  return [change('grain_changed', null, 'breaking', `the grain went from ${list(old.schema.grain)} to ${list(next.schema.grain)}: what one row means changed, and joins and dedups on the old key break`)];
}

/** Readers find partitions by path and decode them by format: either changing breaks every one. */
function partitionChange(old: Contract, next: Contract): RawChange[] {
  const out: RawChange[] = [];
  if (old.produces.partition !== next.produces.partition) {
    out.push(change('partition_changed', null, 'breaking', `the partition layout went from "${old.produces.partition}" to "${next.produces.partition}": readers look for partitions where there are none`));
  }
  if (old.produces.format !== next.produces.format) {
    out.push(change('partition_changed', null, 'breaking', `the format went from ${old.produces.format} to ${next.produces.format}: readers decode files they cannot read`));
  }
  return out;
}

/** extra_columns bounds which columns are valid, so it tightens and loosens like a range. */
function extraColumnsChange(old: Contract, next: Contract, mode: CompatMode): RawChange[] {
  const [from, to] = [old.schema.extraColumns, next.schema.extraColumns];
  if (from === to) return [];
  const text = `schema.extra_columns ${from} → ${to}`;
  if (to === 'reject') return [change('range_tightened', null, 'breaking', `${text}: a partition with an undeclared column, once valid, is now rejected`)];
  return [change('range_loosened', null, loosenedClass(mode), `${text}: ${loosenedWhy(mode)}`)];
}

function slaChange(old: Sla | undefined, next: Sla | undefined): RawChange[] {
  if (!old && !next) return [];
  const keys = [...new Set([...Object.keys(old ?? {}), ...Object.keys(next ?? {})])] as (keyof Sla)[];
  const changed = keys.filter((k) => JSON.stringify(old?.[k]) !== JSON.stringify(next?.[k]));
  if (changed.length === 0) return [];
  const what = !old ? 'an sla was added' : !next ? 'the sla was removed' : changed.map((k) => `sla ${snakeCase(k)} ${show(old[k])} → ${show(next[k])}`).join(', ');
  return [change('sla_changed', null, 'flagged', `${what}: consumers plan around when data arrives, how fresh and how much`)];
}

function show(value: unknown): string {
  if (value === undefined) return 'none';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The sunset belongs to the lifecycle, so a moved sunset is reported with the status. */
function statusChange(old: Contract, next: Contract): RawChange[] {
  if (old.status === next.status && old.sunset === next.sunset) return [];
  const describe = (c: Contract) => (c.sunset ? `${c.status} (sunset ${c.sunset})` : c.status);
  const why = next.status === 'retired' ? ': the gate now quarantines every drop' : next.status === 'deprecated' ? ': consumers should plan their move' : '';
  return [change('status_changed', null, 'flagged', `status went from ${describe(old)} to ${describe(next)}${why}`)];
}

function descriptionChange(old: Contract, next: Contract): RawChange[] {
  return old.description === next.description ? [] : [change('description_changed', null, 'cosmetic', 'the dataset has a new description')];
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
