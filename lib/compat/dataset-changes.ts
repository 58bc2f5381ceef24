import { DEFAULT_CSV_DIALECT, dialectDifferences, yamlValue, CSV_DIALECT_KEYS } from '../contract/csv-dialect.js';
import type { Contract, Sla } from '../contract/model.js';
import { change, loosenedClass, loosenedWhy, type CompatMode, type RawChange } from './contract-diff.js';
import { referenceRowChanges } from './reference-row-changes.js';
import { list } from './rule-changes.js';
import { grainSeverityChange, slaSeverityChanges } from './severity-changes.js';
import { toleranceChange } from './tolerance-change.js';
import { rowBandChanges, volumeChange } from './volume-change.js';

/** Changes of the dataset as a whole, outside the columns. */
export function datasetChanges(old: Contract, next: Contract, mode: CompatMode): RawChange[] {
  return [
    ...grainChange(old, next), ...grainSeverityChange(old, next, mode), ...partitionChange(old, next), ...extraColumnsChange(old, next, mode),
    ...toleranceChange(old.onViolation, next.onViolation, mode),
    ...referenceRowChanges(old, next, mode),
    ...slaChange(old.sla, next.sla), ...rowBandChanges(old.sla, next.sla, mode), ...volumeChange(old.sla, next.sla, mode), ...slaSeverityChanges(old.sla, next.sla, mode),
    ...statusChange(old, next), ...descriptionChange(old, next),
  ];
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
  return [...out, ...dialectChange(old, next)];
}

/**
 * A CSV dialect says how the producer writes its files, and consumers read those files with
 * readers set up for it (the Athena DDL's separator, quote and escape, how a null is spelled,
 * a header to skip): any change of it misreads files written before or after, so it is
 * breaking. Writing out the defaults, or leaving them out, changes nothing.
 */
function dialectChange(old: Contract, next: Contract): RawChange[] {
  if (old.produces.format !== 'csv' || next.produces.format !== 'csv') return [];
  const [from, to] = [old.produces.csv ?? DEFAULT_CSV_DIALECT, next.produces.csv ?? DEFAULT_CSV_DIALECT];
  const keys = dialectDifferences(from, to);
  if (keys.length === 0) return [];
  const what = keys.map((key) => `produces.csv.${key} ${yamlValue(from[CSV_DIALECT_KEYS[key]])} → ${yamlValue(to[CSV_DIALECT_KEYS[key]])}`).join(', ');
  return [change('partition_changed', null, 'breaking', `${what}: the files are written another way, and readers set up for the old way misread them`)];
}

/**
 * extra_columns bounds which columns are valid, so it tightens and loosens like a range, on the
 * ladder allow → warn → reject. `reject` with `schema.severity.extra_columns: warn` is `warn`, as
 * the gate weighs it; only a step to or from rejecting stops or lets through data.
 */
function extraColumnsChange(old: Contract, next: Contract, mode: CompatMode): RawChange[] {
  const [from, to] = [extraColumnsLevel(old), extraColumnsLevel(next)];
  const [said, saying] = [describeExtraColumns(old), describeExtraColumns(next)];
  if (said === saying) return [];
  // The same rule in other words (warn, or reject at severity warn) needs only a patch.
  if (from === to) return [change('description_changed', null, 'cosmetic', `schema.extra_columns ${said} → ${saying}: the same rule`)];
  const id = old.schema.extraColumns === next.schema.extraColumns ? (to > from ? 'severity_tightened' : 'severity_loosened') : to > from ? 'range_tightened' : 'range_loosened';
  const text = `schema.extra_columns ${said} → ${saying}`;
  if (to === 2) return [change(id, null, 'breaking', `${text}: a partition with an undeclared column, once ${from === 1 ? 'published with a warning' : 'valid'}, is now rejected`)];
  if (from === 2) return [change(id, null, loosenedClass(mode), `${text}: a partition with an undeclared column, once rejected, is now published${to === 1 ? ' with a warning' : ''}; ${loosenedWhy(mode)}`)];
  return [change(id, null, 'flagged', `${text}: undeclared columns are published either way; only the warning ${to > from ? 'is new' : 'is gone'}`)];
}

/** 0 allow, 1 warn, 2 reject. */
function extraColumnsLevel(contract: Contract): 0 | 1 | 2 {
  const { extraColumns, severity } = contract.schema;
  if (extraColumns === 'allow') return 0;
  return extraColumns === 'warn' || severity?.extra_columns === 'warn' ? 1 : 2;
}

function describeExtraColumns(contract: Contract): string {
  const { extraColumns, severity } = contract.schema;
  return extraColumns === 'reject' && severity?.extra_columns === 'warn' ? 'reject (severity warn)' : extraColumns;
}

/** Keys of the SLA that have a change of their own: volume-change.ts and severity-changes.ts. */
const OWN_CHANGES: ReadonlySet<string> = new Set(['volumeVsHistory', 'severity', 'minRows', 'maxRows']);

function slaChange(old: Sla | undefined, next: Sla | undefined): RawChange[] {
  if (!old && !next) return [];
  const keys = [...new Set([...Object.keys(old ?? {}), ...Object.keys(next ?? {})])].filter((k) => !OWN_CHANGES.has(k)) as (keyof Sla)[];
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
