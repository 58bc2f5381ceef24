import { describe, expect, it } from 'vitest';
import type { Sla } from '../../lib/contract/model.js';
import { duePartitions, type DuePartition } from '../../lib/sla/sla-calendar.js';

const at = (iso: string): number => Date.parse(iso);
const window = (from: string, to: string) => ({ from: at(from), to: at(to) });
const DAILY = 'dt={ds}';
const HOURLY = 'dt={ds}/hr={hh}';

function sla(overrides: Partial<Sla> = {}): Sla {
  return { schedule: { kind: 'daily' }, arrivalBy: '06:00', partitionLag: 1, graceMinutes: 0, skipDates: [], timezone: 'Europe/Berlin', ...overrides };
}

/** Path and ISO deadline of each due partition: what a reader checks at a glance. */
function summary(due: readonly DuePartition[]): [string, string][] {
  return due.map((d) => [d.path, new Date(d.deadline).toISOString()]);
}

describe('duePartitions for a daily schedule', () => {
  it('expects yesterday by 06:00 Berlin winter time, 05:00Z', () => {
    const due = duePartitions(sla({ graceMinutes: 30 }), DAILY, window('2026-12-01T00:00:00Z', '2026-12-01T23:59:00Z'));
    expect(due).toEqual([{ values: { ds: '2026-11-30' }, path: 'dt=2026-11-30', deadline: at('2026-12-01T05:00:00Z'), pageAfter: at('2026-12-01T05:30:00Z') }]);
  });
  it('expects yesterday by 06:00 Berlin summer time, 04:00Z', () => {
    expect(summary(duePartitions(sla(), DAILY, window('2026-07-01T00:00:00Z', '2026-07-01T23:59:00Z')))).toEqual([['dt=2026-06-30', '2026-07-01T04:00:00.000Z']]);
  });
  it('moves the deadline from 05:00Z to 04:00Z on the spring-forward day', () => {
    expect(summary(duePartitions(sla(), DAILY, window('2026-03-28T00:00:00Z', '2026-03-30T23:00:00Z')))).toEqual([
      ['dt=2026-03-27', '2026-03-28T05:00:00.000Z'],
      ['dt=2026-03-28', '2026-03-29T04:00:00.000Z'],
      ['dt=2026-03-29', '2026-03-30T04:00:00.000Z'],
    ]);
  });
  it('moves the deadline from 04:00Z back to 05:00Z on the fall-back day', () => {
    expect(summary(duePartitions(sla(), DAILY, window('2026-10-24T00:00:00Z', '2026-10-26T23:00:00Z')))).toEqual([
      ['dt=2026-10-23', '2026-10-24T04:00:00.000Z'],
      ['dt=2026-10-24', '2026-10-25T05:00:00.000Z'],
      ['dt=2026-10-25', '2026-10-26T05:00:00.000Z'],
    ]);
  });
  it('reads arrival_by in UTC when the SLA names no timezone', () => {
    expect(summary(duePartitions(sla({ timezone: undefined }), DAILY, window('2026-12-01T00:00:00Z', '2026-12-01T23:59:00Z')))).toEqual([['dt=2026-11-30', '2026-12-01T06:00:00.000Z']]);
  });
  it('expects the day itself with lag 0 and the day before yesterday with lag 2', () => {
    const day = window('2026-12-01T00:00:00Z', '2026-12-01T23:59:00Z');
    expect(duePartitions(sla({ partitionLag: 0 }), DAILY, day).map((d) => d.path)).toEqual(['dt=2026-12-01']);
    expect(duePartitions(sla({ partitionLag: 2 }), DAILY, day).map((d) => d.path)).toEqual(['dt=2026-11-29']);
  });
  it('expects nothing dated in skip_dates', () => {
    const due = duePartitions(sla({ skipDates: ['2026-12-25'] }), DAILY, window('2026-12-25T00:00:00Z', '2026-12-27T23:00:00Z'));
    expect(due.map((d) => d.path)).toEqual(['dt=2026-12-24', 'dt=2026-12-26']);
  });
  it('includes deadlines that fall exactly on either end of the window', () => {
    const first = at('2026-12-01T05:00:00Z');
    const last = at('2026-12-03T05:00:00Z');
    expect(duePartitions(sla(), DAILY, { from: first, to: last })).toHaveLength(3);
    expect(duePartitions(sla(), DAILY, { from: first + 1, to: last - 1 })).toHaveLength(1);
  });
  it('expects nothing from a clock schedule without arrival_by', () => {
    expect(duePartitions(sla({ arrivalBy: undefined }), DAILY, window('2026-12-01T00:00:00Z', '2026-12-07T00:00:00Z'))).toEqual([]);
    expect(duePartitions(sla({ schedule: { kind: 'hourly' }, arrivalBy: undefined }), HOURLY, window('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z'))).toEqual([]);
  });
  it('expects nothing from an empty or inverted window', () => {
    expect(duePartitions(sla(), DAILY, { from: at('2026-12-02T00:00:00Z'), to: at('2026-12-01T00:00:00Z') })).toEqual([]);
  });
});

describe('duePartitions for a weekdays schedule', () => {
  const weekdays = (partitionLag: number) => sla({ schedule: { kind: 'weekdays' }, partitionLag });
  it('has no deadlines on Saturday and Sunday and expects Friday on Monday', () => {
    expect(summary(duePartitions(weekdays(1), DAILY, window('2026-12-04T12:00:00Z', '2026-12-08T12:00:00Z')))).toEqual([
      ['dt=2026-12-04', '2026-12-07T05:00:00.000Z'],
      ['dt=2026-12-07', '2026-12-08T05:00:00.000Z'],
    ]);
  });
  it('expects the day itself with lag 0 and Thursday on Monday with lag 2', () => {
    const monday = window('2026-12-07T00:00:00Z', '2026-12-07T23:00:00Z');
    expect(duePartitions(weekdays(0), DAILY, monday).map((d) => d.path)).toEqual(['dt=2026-12-07']);
    expect(duePartitions(weekdays(2), DAILY, monday).map((d) => d.path)).toEqual(['dt=2026-12-03']);
  });
});

describe('duePartitions for an hourly schedule', () => {
  const hourly = (overrides: Partial<Sla> = {}) => sla({ schedule: { kind: 'hourly' }, arrivalBy: '00:15', ...overrides });
  it('expects the previous local hour at 15 minutes past every hour', () => {
    expect(summary(duePartitions(hourly(), HOURLY, window('2026-12-01T09:00:00Z', '2026-12-01T11:00:00Z')))).toEqual([
      ['dt=2026-12-01/hr=09', '2026-12-01T09:15:00.000Z'],
      ['dt=2026-12-01/hr=10', '2026-12-01T10:15:00.000Z'],
    ]);
  });
  it('treats the local hour repeated on the fall-back night as one partition due at its first deadline', () => {
    expect(summary(duePartitions(hourly(), HOURLY, window('2026-10-24T22:00:00Z', '2026-10-25T04:00:00Z')))).toEqual([
      ['dt=2026-10-24/hr=23', '2026-10-24T22:15:00.000Z'],
      ['dt=2026-10-25/hr=00', '2026-10-24T23:15:00.000Z'],
      ['dt=2026-10-25/hr=01', '2026-10-25T00:15:00.000Z'],
      ['dt=2026-10-25/hr=02', '2026-10-25T01:15:00.000Z'],
      ['dt=2026-10-25/hr=03', '2026-10-25T03:15:00.000Z'],
    ]);
  });
  it('does not report the repeated hour again when the window opens after its first deadline', () => {
    const due = duePartitions(hourly(), HOURLY, window('2026-10-25T02:00:00Z', '2026-10-25T04:00:00Z'));
    expect(due.map((d) => d.path)).toEqual(['dt=2026-10-25/hr=03']);
  });
  it('expects no partition for the local hour skipped on the spring-forward night', () => {
    expect(summary(duePartitions(hourly(), HOURLY, window('2026-03-28T23:00:00Z', '2026-03-29T03:00:00Z')))).toEqual([
      ['dt=2026-03-28/hr=23', '2026-03-28T23:15:00.000Z'],
      ['dt=2026-03-29/hr=00', '2026-03-29T00:15:00.000Z'],
      ['dt=2026-03-29/hr=01', '2026-03-29T01:15:00.000Z'],
      ['dt=2026-03-29/hr=03', '2026-03-29T02:15:00.000Z'],
    ]);
  });
  it('places local minutes past the hour correctly in a half-hour zone', () => {
    expect(summary(duePartitions(hourly({ timezone: 'Asia/Kolkata' }), HOURLY, window('2026-01-15T00:00:00Z', '2026-01-15T02:00:00Z')))).toEqual([
      ['dt=2026-01-15/hr=05', '2026-01-15T00:45:00.000Z'],
      ['dt=2026-01-15/hr=06', '2026-01-15T01:45:00.000Z'],
    ]);
  });
  it('finds both passes through a minute repeated by a 30-minute fall-back and keeps the first', () => {
    const lordHowe = hourly({ timezone: 'Australia/Lord_Howe', arrivalBy: '00:45', partitionLag: 0 });
    expect(summary(duePartitions(lordHowe, HOURLY, window('2026-04-04T13:00:00Z', '2026-04-04T17:00:00Z')))).toEqual([
      ['dt=2026-04-05/hr=00', '2026-04-04T13:45:00.000Z'],
      ['dt=2026-04-05/hr=01', '2026-04-04T14:45:00.000Z'],
      ['dt=2026-04-05/hr=02', '2026-04-04T16:15:00.000Z'],
    ]);
  });
  it('lists one deadline per hour over a week, in order', () => {
    const due = duePartitions(hourly(), HOURLY, window('2026-12-01T00:00:00Z', '2026-12-07T23:59:00Z'));
    expect(due).toHaveLength(7 * 24);
    expect(new Set(due.map((d) => d.path)).size).toBe(due.length);
    expect(due.every((d, i) => i === 0 || d.deadline > due[i - 1]!.deadline)).toBe(true);
  });
  it('expects the hour two hours back with lag 2', () => {
    const due = duePartitions(hourly({ partitionLag: 2 }), HOURLY, window('2026-12-01T09:00:00Z', '2026-12-01T09:59:00Z'));
    expect(due.map((d) => d.path)).toEqual(['dt=2026-12-01/hr=08']);
  });
});

describe('duePartitions for a cron schedule', () => {
  const cron = (expression: string, overrides: Partial<Sla> = {}) => sla({ schedule: { kind: 'cron', expression }, arrivalBy: undefined, ...overrides });
  it('fires "30 7 * * 1-5" on weekdays only, expecting the calendar day before', () => {
    expect(summary(duePartitions(cron('30 7 * * 1-5'), DAILY, window('2026-12-04T00:00:00Z', '2026-12-08T23:59:00Z')))).toEqual([
      ['dt=2026-12-03', '2026-12-04T06:30:00.000Z'],
      ['dt=2026-12-06', '2026-12-07T06:30:00.000Z'],
      ['dt=2026-12-07', '2026-12-08T06:30:00.000Z'],
    ]);
  });
  it('follows summer time for "30 7 * * 1-5"', () => {
    expect(summary(duePartitions(cron('30 7 * * 1-5'), DAILY, window('2026-07-01T00:00:00Z', '2026-07-01T23:59:00Z')))).toEqual([['dt=2026-06-30', '2026-07-01T05:30:00.000Z']]);
  });
  it('moves a fire time skipped by spring-forward to after the jump', () => {
    expect(summary(duePartitions(cron('30 2 * * *'), DAILY, window('2026-03-29T00:00:00Z', '2026-03-29T23:59:00Z')))).toEqual([['dt=2026-03-28', '2026-03-29T01:30:00.000Z']]);
  });
  it('expects the local hour lag hours before the fire when the template has {hh}', () => {
    expect(summary(duePartitions(cron('5 */6 * * *'), HOURLY, window('2026-12-01T00:00:00Z', '2026-12-01T12:00:00Z')))).toEqual([
      ['dt=2026-12-01/hr=05', '2026-12-01T05:05:00.000Z'],
      ['dt=2026-12-01/hr=11', '2026-12-01T11:05:00.000Z'],
    ]);
  });
  it('keeps the earliest fire when several fires expect the same day', () => {
    expect(summary(duePartitions(cron('0 6,9 * * *'), DAILY, window('2026-12-01T00:00:00Z', '2026-12-01T23:59:00Z')))).toEqual([['dt=2026-11-30', '2026-12-01T05:00:00.000Z']]);
  });
  it('skips dates in skip_dates', () => {
    const due = duePartitions(cron('30 7 * * 1-5', { skipDates: ['2026-12-07'] }), DAILY, window('2026-12-07T00:00:00Z', '2026-12-09T23:59:00Z'));
    expect(due.map((d) => d.path)).toEqual(['dt=2026-12-06', 'dt=2026-12-08']);
  });
});
