import { isTemporalType } from '../contract/column-type.js';
import type { PartitionValues } from '../contract/partition-template.js';
import { formatBound, MILLIS_PER_DAY } from '../contract/temporal.js';
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

/** Names that say "when this row last changed", best first; any other `*_at` comes after. */
const NAMES = [/^updated_at$/, /^(last_)?(updated|modified)(_at|_time|_ts|_on)?$/, /(updated|modified)_(at|time|ts)$/, /^event_(time|ts|at)$/, /^created_at$/, /_at$/, /_(time|ts)$/];

/**
 * Guesses the freshness column: among date and timestamp columns with a value in every
 * partition, the best name, then the one whose newest value lies closest to its partition's
 * end. The SLA is the largest lag seen between the partition's end and its newest value, plus
 * the margin.
 */
export function inferFreshness(columns: readonly TimeColumn[], partitions: readonly { values?: PartitionValues }[]): { column: string; maxLagHours: number; notes: string[]; newest: number[] } | undefined {
  const ends = partitions.map((p) => (p.values ? partitionEnd(p.values) : undefined));
  const usable = columns.filter((c) => isTemporalType(c.column.type) && c.newest.length > 0 && c.newest.every((v) => v !== undefined));
  if (usable.length === 0) return undefined;
  const score = (c: TimeColumn) => [nameRank(c.column.name), distance(c, ends)] as const;
  const [chosen, ...others] = [...usable].sort((a, b) => score(a)[0] - score(b)[0] || score(a)[1] - score(b)[1]) as [TimeColumn, ...TimeColumn[]];
  const hourly = partitions.some((p) => p.values?.hh !== undefined);
  const margin = hourly ? HOURLY_MARGIN_HOURS : DAILY_MARGIN_HOURS;
  const lags = chosen.newest.flatMap((v, i) => (ends[i] === undefined ? [] : [Math.max(0, (ends[i]! - v!) / HOUR)]));
  const lag = lags.length ? Math.max(...lags) : 0;
  const newest = formatBound(Math.max(...(chosen.newest as number[])), chosen.column.type);
  const notes = [
    `freshness: ${chosen.column.name} (${nameRank(chosen.column.name) < NAMES.length ? 'by its name' : 'its newest value is closest to the partition end'}); newest seen ${newest}`,
    lags.length
      ? `max_lag_hours: newest value at most ${lag.toFixed(1)} h before its partition's end (UTC), plus ${margin} h for the drop to arrive: tighten it to your arrival time`
      : `max_lag_hours: no partition date to measure the lag from: ${margin} h is a placeholder`,
  ];
  if (others.length) notes.push(`other time columns: ${others.map((o) => o.column.name).join(', ')}`);
  return { column: chosen.column.name, maxLagHours: Math.ceil(lag + margin), notes, newest: chosen.newest as number[] };
}

function nameRank(name: string): number {
  const rank = NAMES.findIndex((pattern) => pattern.test(name));
  return rank === -1 ? NAMES.length : rank;
}

/** Mean distance between a column's newest values and the partition ends; 0 without dates. */
function distance(column: TimeColumn, ends: readonly (number | undefined)[]): number {
  const gaps = column.newest.flatMap((v, i) => (ends[i] === undefined || v === undefined ? [] : [Math.abs(ends[i]! - v)]));
  return gaps.length ? gaps.reduce((a, b) => a + b, 0) / gaps.length : 0;
}

/** When a partition's period ends: the next midnight (UTC), or the next hour for `{hh}`. */
export function partitionEnd(values: PartitionValues): number {
  const day = Date.parse(`${values.ds}T00:00:00Z`);
  return values.hh === undefined ? day + MILLIS_PER_DAY : day + (Number(values.hh) + 1) * HOUR;
}
