/**
 * The SLA calendar: which partitions are due, and by when. All times are wall-clock times in
 * `sla.timezone` (UTC when absent); deadlines are instants (epoch ms).
 *
 * - `daily` (the default): a deadline at `arrival_by` every local day D; due is `ds = D - lag days`.
 * - `weekdays`: deadlines only on local Monday to Friday; due is the date `lag` weekdays before D
 *   (Monday with lag 1 expects Friday; lag 0 expects D itself).
 * - `hourly`: `arrival_by` is `00:MM`, a deadline at every instant the local clock shows minute MM.
 *   Due is the local hour `lag` real hours before the deadline. On a fall-back night the repeated
 *   local hour is one partition whose deadline is the first; on a spring-forward night the skipped
 *   local hour has no partition.
 * - cron: a deadline at every fire time of the expression in the zone; due is the firing day minus
 *   `lag` days, or, when the template has `{hh}`, the local hour `lag` real hours before the fire.
 *
 * Wall times skipped by a spring-forward jump move forward by the jump; repeated wall times fire
 * once, at their first occurrence (see `fromLocal`). Partitions dated in `skip_dates` are not due,
 * and a path due twice is due at its earliest deadline.
 */
import type { Sla } from '../contract/model.js';
import { renderPartition, type PartitionValues } from '../contract/partition-template.js';
import { cronMatchesDay, parseCron, type CronSchedule } from './cron.js';
import { addDays, dayOfWeek, daysBetween, formatDate, fromLocal, pad2, toLocal, utcOffsetMs, type LocalDate } from './zoned-time.js';

export interface DuePartition {
  readonly values: PartitionValues;
  /** `renderPartition(template, values)`, e.g. `dt=2026-11-30`. */
  readonly path: string;
  /** Epoch ms: the partition must be published by then. */
  readonly deadline: number;
  /** `deadline` plus `grace_minutes`: when a missing partition pages someone. */
  readonly pageAfter: number;
}

export interface CalendarWindow {
  readonly from: number;
  readonly to: number;
}

interface Deadline {
  readonly values: PartitionValues;
  readonly deadline: number;
}

interface Clock {
  readonly hour: number;
  readonly minute: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
// A path can be due more than once (fall-back hours, an hourly schedule over a daily template), and
// its earliest deadline may lie before the window; looking this far back finds it.
const LOOK_BACK_DAYS = 2;

/**
 * Every partition whose deadline lies in the inclusive window, sorted by deadline. A daily,
 * weekdays or hourly SLA without `arrival_by` has no deadlines, so none are returned: a clock SLA
 * needs a time, and an SLA of only row counts or freshness (the implicit daily) must not page at
 * a guessed midnight. The loader reports a schedule written without `arrival_by`.
 */
export function duePartitions(sla: Sla, template: string, window: CalendarWindow): DuePartition[] {
  if (window.from > window.to) return [];
  const skipped = new Set(sla.skipDates);
  const earliest = new Map<string, DuePartition>();
  const byTime = deadlinesFor(sla, template, window).sort((a, b) => a.deadline - b.deadline);
  for (const { values, deadline } of byTime) {
    const path = renderPartition(template, values);
    if (skipped.has(values.ds) || earliest.has(path)) continue;
    earliest.set(path, { values, path, deadline, pageAfter: deadline + sla.graceMinutes * MINUTE });
  }
  return [...earliest.values()]
    .filter((due) => due.deadline >= window.from && due.deadline <= window.to)
    .sort((a, b) => a.deadline - b.deadline || a.path.localeCompare(b.path));
}

function deadlinesFor(sla: Sla, template: string, window: CalendarWindow): Deadline[] {
  const zone = sla.timezone ?? 'UTC';
  const lag = sla.partitionLag;
  const schedule = sla.schedule;
  if (schedule.kind === 'cron') {
    const cron = parseCron(schedule.expression);
    if ('error' in cron) return [];
    return cronDeadlines(cron, localDays(window, zone), { lag, zone, hourly: template.includes('{hh}') });
  }
  const clock = sla.arrivalBy === undefined ? undefined : parseClock(sla.arrivalBy);
  if (!clock) return [];
  if (schedule.kind === 'hourly') return hourlyDeadlines(window, clock.minute, lag, zone);
  const days = localDays(window, zone);
  const atClock = (day: LocalDate, due: LocalDate): Deadline => ({ values: { ds: formatDate(due) }, deadline: fromLocal({ ...day, ...clock }, zone) });
  if (schedule.kind === 'weekdays') return days.filter(isWeekday).map((day) => atClock(day, weekdaysBefore(day, lag)));
  return days.map((day) => atClock(day, addDays(day, -lag)));
}

/**
 * The local days whose deadlines can matter, from LOOK_BACK_DAYS before the window to its last day:
 * a day's deadline never resolves to an instant before that day starts, so later days cannot matter.
 */
function localDays(window: CalendarWindow, zone: string): LocalDate[] {
  const first = addDays(toLocal(window.from, zone), -LOOK_BACK_DAYS);
  const count = daysBetween(first, toLocal(window.to, zone)) + 1;
  return Array.from({ length: count }, (_, i) => addDays(first, i));
}

function hourlyDeadlines(window: CalendarWindow, minute: number, lag: number, zone: string): Deadline[] {
  const deadlines: Deadline[] = [];
  const firstHour = Math.floor((window.from - LOOK_BACK_DAYS * DAY) / HOUR) * HOUR;
  for (let hourStart = firstHour; hourStart <= window.to; hourStart += HOUR) {
    for (const instant of instantsAtMinute(hourStart, minute, zone)) {
      deadlines.push({ values: hourValues(instant - lag * HOUR, zone), deadline: instant });
    }
  }
  return deadlines;
}

/**
 * The instants in one UTC hour at which the local clock shows `minute`. The offset is read at both
 * ends of the hour because a transition inside it (Lord Howe moves by 30 minutes) can make the
 * minute occur twice or not at all.
 */
function instantsAtMinute(hourStart: number, minute: number, zone: string): number[] {
  const found = new Set<number>();
  for (const probe of [hourStart, hourStart + HOUR - 1]) {
    const offsetMinutes = Math.round(utcOffsetMs(probe, zone) / MINUTE);
    const instant = hourStart + mod(minute - offsetMinutes, 60) * MINUTE;
    if (toLocal(instant, zone).minute === minute) found.add(instant);
  }
  return [...found];
}

interface CronOptions {
  readonly lag: number;
  readonly zone: string;
  /** The template has `{hh}`: the due partition is an hour, not the firing day. */
  readonly hourly: boolean;
}

function cronDeadlines(cron: CronSchedule, days: readonly LocalDate[], options: CronOptions): Deadline[] {
  const hours = [...cron.hours].sort((a, b) => a - b);
  const minutes = [...cron.minutes].sort((a, b) => a - b);
  const deadlines: Deadline[] = [];
  for (const day of days) {
    if (!cronMatchesDay(cron, { month: day.month, dayOfMonth: day.day, dayOfWeek: dayOfWeek(day) })) continue;
    const dayValues = { ds: formatDate(addDays(day, -options.lag)) };
    for (const hour of hours) {
      for (const minute of minutes) {
        const fire = fromLocal({ ...day, hour, minute }, options.zone);
        deadlines.push({ values: options.hourly ? hourValues(fire - options.lag * HOUR, options.zone) : dayValues, deadline: fire });
      }
    }
  }
  return deadlines;
}

function hourValues(instant: number, zone: string): PartitionValues {
  const local = toLocal(instant, zone);
  return { ds: formatDate(local), hh: pad2(local.hour) };
}

function isWeekday(day: LocalDate): boolean {
  const weekday = dayOfWeek(day);
  return weekday >= 1 && weekday <= 5;
}

/** The date `count` weekdays before `day`; `day` itself when count is 0. */
function weekdaysBefore(day: LocalDate, count: number): LocalDate {
  let date = day;
  for (let left = count; left > 0; ) {
    date = addDays(date, -1);
    if (isWeekday(date)) left -= 1;
  }
  return date;
}

function parseClock(text: string): Clock | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour < 24 && minute < 60 ? { hour, minute } : undefined;
}

function mod(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor;
}
