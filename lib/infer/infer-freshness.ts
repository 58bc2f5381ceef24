import { isTemporalType } from '../contract/column-type.js';
import type { PartitionValues } from '../contract/partition-template.js';
import { formatBound, MILLIS_PER_DAY } from '../contract/temporal.js';
import type { Choice } from './choice.js';
import { timeRole, type TimeRole } from './column-roles.js';
import type { ProposedColumn } from './proposal.js';

const HOUR = 3_600_000;

/**
 * The margin added to the observed lag, for the drop to arrive after its partition closes: a
 * day for daily partitions, three hours for hourly ones. The samples cannot show arrival times.
 */
export const DAILY_MARGIN_HOURS = 24;
export const HOURLY_MARGIN_HOURS = 3;

/** A temporal column with its newest value in each partition (undefined: no value there). */
export interface TimeColumn {
  readonly column: ProposedColumn;
  readonly newest: readonly (number | undefined)[];
}

export interface Freshness {
  readonly column: string;
  readonly maxLagHours: number;
  readonly notes: string[];
  readonly newest: number[];
}

/** Load times first: freshness asks when the data arrived (see chosenWhy). */
const ROLES: readonly TimeRole[] = ['load', 'update', 'event'];
/** Instants before wall-clock time (its lag shifts with the writer's zone), both before dates. */
const KINDS = ['timestamp', 'timestamp_ntz', 'date'];

interface Scored extends TimeColumn {
  readonly role: TimeRole;
  readonly kind: number;
  /** Mean distance of the newest values from the partition ends; undefined without dates. */
  readonly distance: number | undefined;
}

/**
 * Picks the freshness column among the date and timestamp columns with a value in every
 * partition: a load time (`ingested_at`, `_etl_loaded_at`) before an update time (`updated_at`)
 * before an event time (`pickup_at`, `created_at`); then an instant before wall-clock time
 * before a date; then the newest value closest to the partition's end. The SLA is the largest
 * lag seen between the partition's end and its newest value, plus the margin.
 */
export function inferFreshness(columns: readonly TimeColumn[], partitions: readonly { values?: PartitionValues }[], labels: readonly string[]): { freshness?: Freshness; choice: Choice } {
  const ends = partitions.map((p) => (p.values ? partitionEnd(p.values) : undefined));
  const temporal = columns.filter((c) => isTemporalType(c.column.type));
  const usable = temporal.filter((c) => c.newest.length > 0 && c.newest.every((v) => v !== undefined)).map((c) => score(c, ends));
  const unusable = temporal.filter((c) => !usable.some((u) => u.column === c.column)).map((c) => ({ name: c.column.name, why: noValue(c, labels) }));
  const [chosen, ...others] = usable.sort(compareScored);
  if (!chosen) {
    const why = temporal.length ? 'no date or timestamp column has a value in every sample' : 'no date or timestamp column';
    return { choice: { label: 'freshness_column', why: `${why}: no freshness rule`, runnersUp: unusable } };
  }
  const runnersUp = [...others.map((o) => ({ name: o.column.name, why: lostWhy(o, chosen) })), ...unusable];
  const choice: Choice = { label: 'freshness_column', chosen: chosen.column.name, why: chosenWhy(chosen, others), runnersUp };
  return { freshness: lagRule(chosen, ends, partitions.some((p) => p.values?.hh !== undefined)), choice };
}

function lagRule(chosen: Scored, ends: readonly (number | undefined)[], hourly: boolean): Freshness {
  const margin = hourly ? HOURLY_MARGIN_HOURS : DAILY_MARGIN_HOURS;
  const lags = chosen.newest.flatMap((v, i) => (ends[i] === undefined ? [] : [(ends[i]! - v!) / HOUR]));
  const lag = Math.max(0, ...lags);
  const newest = formatBound(Math.max(...(chosen.newest as number[])), chosen.column.type);
  const measured = lags.every((l) => l <= 0)
    ? `newest value at or after its partition's end in every sample (as a load time's is), so no lag to add`
    : `newest value at most ${lag.toFixed(1)} h before its partition's end (UTC)`;
  const notes = [
    `freshness: newest ${chosen.column.name} seen ${newest}`,
    lags.length
      ? `max_lag_hours: ${measured}, plus ${margin} h for the drop to arrive: tighten it to your arrival time`
      : `max_lag_hours: no partition date to measure the lag from: ${margin} h is a placeholder`,
  ];
  return { column: chosen.column.name, maxLagHours: Math.ceil(lag + margin), notes, newest: chosen.newest as number[] };
}

function score(column: TimeColumn, ends: readonly (number | undefined)[]): Scored {
  const gaps = column.newest.flatMap((v, i) => (ends[i] === undefined || v === undefined ? [] : [Math.abs(ends[i]! - v)]));
  const distance = gaps.length ? gaps.reduce((a, b) => a + b, 0) / gaps.length : undefined;
  return { ...column, role: timeRole(column.column.name), kind: KINDS.indexOf(column.column.type.kind), distance };
}

function compareScored(a: Scored, b: Scored): number {
  return ROLES.indexOf(a.role) - ROLES.indexOf(b.role) || a.kind - b.kind || (a.distance ?? 0) - (b.distance ?? 0);
}

function chosenWhy(chosen: Scored, others: readonly Scored[]): string {
  const peers = others.filter((o) => o.role === chosen.role && o.kind === chosen.kind).length;
  const tie = peers > 0 && chosen.distance !== undefined ? `; of ${peers + 1} such columns, its newest value lies closest to the partition end` : '';
  switch (chosen.role) {
    case 'load': return `its name says when the row was loaded, and freshness is about when data arrives: a load time shows that, where an event time shows how old the events are${tie}`;
    case 'update': return `its name says when the source last changed the row; no load time (ingested_at, loaded_at, _etl_loaded_at, …) is among the columns, which would show arrival more directly${tie}`;
    case 'event': return `no load or update time (ingested_at, loaded_at, updated_at, …) is among the columns, so an event time: the SLA measures how old the newest event is, not when the data arrived${tie}`;
  }
}

function lostWhy(other: Scored, chosen: Scored): string {
  if (other.role !== chosen.role) {
    if (other.role === 'event') return 'an event time: it shows how old the events are, not when the data arrived';
    return `an update time: when the source last changed the row, where ${chosen.column.name} says when the data arrived`;
  }
  if (other.kind !== chosen.kind) {
    return other.column.type.kind === 'date' ? 'a date: too coarse to measure a lag in hours' : "wall-clock time with no zone (timestamp_ntz): the lag it shows shifts with the writer's zone";
  }
  const what = { load: 'a load time', update: 'an update time', event: 'an event time' }[other.role];
  if (other.distance === undefined || chosen.distance === undefined) return `${what} too; ${chosen.column.name} comes first among the columns`;
  return `${what} too, but its newest value lies further from the partition end (${hours(other.distance)} against ${hours(chosen.distance)} on average)`;
}

function noValue(column: TimeColumn, labels: readonly string[]): string {
  const at = column.newest.findIndex((v) => v === undefined);
  const where = at === -1 ? 'any sample' : `${labels[at] ?? `sample ${at + 1}`} (sample ${at + 1} of ${labels.length})`;
  return `no value in ${where}: a freshness column needs one in every partition`;
}

function hours(millis: number): string {
  return `${(millis / HOUR).toFixed(1)} h`;
}

/** When a partition's period ends: the next midnight (UTC), or the next hour for `{hh}`. */
export function partitionEnd(values: PartitionValues): number {
  const day = Date.parse(`${values.ds}T00:00:00Z`);
  return values.hh === undefined ? day + MILLIS_PER_DAY : day + (Number(values.hh) + 1) * HOUR;
}
