import { matchPartition } from '../contract/partition-template.js';
import { formatDate, MILLIS_PER_DAY, parseTemporal } from '../contract/temporal.js';
import { GateError } from '../errors.js';

/** Used when neither --last nor --since is given: a week of history, a partition per day at most. */
export const DEFAULT_LAST_DAYS = 7;

/** Which partitions a replay looks at: those whose time is at or after `since`. */
export interface ReplayWindow {
  readonly since: number;
  /** How the window was asked for, as the output names it: `the last 7 days`, `since 2026-11-01`. */
  readonly asked: string;
}

/** How a partition was placed in time: by its path, by the gate's decision, or, for an unreadable record, by when it was written. */
export type TimeBasis = 'partition' | 'decided_at' | 'last_modified';

/**
 * `--last N`: today (UTC, by `now`) and the N days before it, so `--last 1` on 2026-11-30 still
 * takes the `dt=2026-11-29` a daily job publishes that morning. `--since`: a day (its 00:00 UTC)
 * or an instant with an offset. Neither: the last DEFAULT_LAST_DAYS days.
 */
export function replayWindow(options: { readonly last?: string; readonly since?: string }, now: number): ReplayWindow {
  if (options.last !== undefined && options.since !== undefined) throw new GateError('bad_arguments', 'pass --last or --since, not both');
  if (options.since !== undefined) return { since: parseSince(options.since), asked: `since ${options.since}` };
  const days = options.last === undefined ? DEFAULT_LAST_DAYS : parseDays(options.last);
  const since = Math.floor(now / MILLIS_PER_DAY) * MILLIS_PER_DAY - days * MILLIS_PER_DAY;
  return { since, asked: `the last ${days} ${days === 1 ? 'day' : 'days'}${options.last === undefined ? ' (the default)' : ''}, since ${formatDate(since)}` };
}

function parseDays(text: string): number {
  const days = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(days >= 1)) throw new GateError('bad_arguments', `--last must be a whole number of days, 1 or more, e.g. --last 7; found "${text}"`);
  return days;
}

function parseSince(text: string): number {
  const millis = parseTemporal(text, 'timestamp');
  const isDate = /^\d{4}-\d{2}-\d{2}$/.test(text);
  if (millis === undefined || !(isDate || /(Z|[+-]\d{2}:?\d{2})$/.test(text))) {
    throw new GateError('bad_arguments', `--since must be a day (YYYY-MM-DD, UTC) or a timestamp with an offset, e.g. --since 2026-11-01; found "${text}"`);
  }
  return millis;
}

/**
 * A partition's time by its path: the `{ds}` day (and `{hh}` hour) of the contract's template,
 * UTC. Undefined when the path does not fit the template: then the gate's decision time says.
 */
export function partitionTime(template: string, partition: string): number | undefined {
  const values = matchPartition(template, partition);
  return values ? Date.parse(`${values.ds}T${values.hh ?? '00'}:00:00Z`) : undefined;
}
