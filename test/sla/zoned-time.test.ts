import { describe, expect, it } from 'vitest';
import { addDays, dayOfWeek, daysBetween, formatDate, fromLocal, toLocal, utcOffsetMs } from '../../lib/sla/zoned-time.js';

const at = (iso: string): number => Date.parse(iso);
const wall = (year: number, month: number, day: number, hour: number, minute: number) => ({ year, month, day, hour, minute });
const HOUR = 3_600_000;

describe('toLocal', () => {
  it('reads Berlin winter time one hour ahead of UTC', () => {
    expect(toLocal(at('2026-12-01T05:00:00Z'), 'Europe/Berlin')).toEqual({ year: 2026, month: 12, day: 1, hour: 6, minute: 0, dayOfWeek: 2 });
  });
  it('reads Berlin summer time two hours ahead of UTC', () => {
    expect(toLocal(at('2026-07-01T04:00:00Z'), 'Europe/Berlin')).toMatchObject({ month: 7, day: 1, hour: 6, minute: 0 });
  });
  it('crosses midnight into the next local day for a half-hour offset', () => {
    expect(toLocal(at('2026-01-15T18:45:00Z'), 'Asia/Kolkata')).toEqual({ year: 2026, month: 1, day: 16, hour: 0, minute: 15, dayOfWeek: 5 });
  });
  it('reads the previous local day west of Greenwich', () => {
    expect(toLocal(at('2026-12-01T03:00:00Z'), 'America/New_York')).toMatchObject({ month: 11, day: 30, hour: 22, dayOfWeek: 1 });
  });
  it('ignores seconds and milliseconds of the instant', () => {
    expect(toLocal(at('2026-12-01T05:00:59.999Z'), 'UTC')).toMatchObject({ hour: 5, minute: 0 });
  });
});

describe('utcOffsetMs', () => {
  it('is 10:30 in Lord Howe winter and 11:00 in its summer', () => {
    expect(utcOffsetMs(at('2026-07-01T00:00:00Z'), 'Australia/Lord_Howe')).toBe(10.5 * HOUR);
    expect(utcOffsetMs(at('2026-01-01T00:00:00Z'), 'Australia/Lord_Howe')).toBe(11 * HOUR);
  });
  it('is negative west of Greenwich', () => {
    expect(utcOffsetMs(at('2026-01-01T00:00:00Z'), 'America/New_York')).toBe(-5 * HOUR);
  });
});

describe('fromLocal', () => {
  it('resolves Berlin winter and summer wall times with their own offsets', () => {
    expect(fromLocal(wall(2026, 12, 1, 6, 0), 'Europe/Berlin')).toBe(at('2026-12-01T05:00:00Z'));
    expect(fromLocal(wall(2026, 7, 1, 6, 0), 'Europe/Berlin')).toBe(at('2026-07-01T04:00:00Z'));
  });
  it('shifts a Berlin wall time skipped by spring-forward forward by the gap', () => {
    const instant = fromLocal(wall(2026, 3, 29, 2, 30), 'Europe/Berlin');
    expect(instant).toBe(at('2026-03-29T01:30:00Z'));
    expect(toLocal(instant, 'Europe/Berlin')).toMatchObject({ hour: 3, minute: 30 });
  });
  it('resolves a Berlin wall time repeated by fall-back to its first, summer-time occurrence', () => {
    expect(fromLocal(wall(2026, 10, 25, 2, 30), 'Europe/Berlin')).toBe(at('2026-10-25T00:30:00Z'));
  });
  it('resolves wall times either side of the Berlin changes unambiguously', () => {
    expect(fromLocal(wall(2026, 3, 29, 1, 59), 'Europe/Berlin')).toBe(at('2026-03-29T00:59:00Z'));
    expect(fromLocal(wall(2026, 3, 29, 3, 0), 'Europe/Berlin')).toBe(at('2026-03-29T01:00:00Z'));
    expect(fromLocal(wall(2026, 10, 25, 3, 0), 'Europe/Berlin')).toBe(at('2026-10-25T02:00:00Z'));
  });
  it('shifts a New York wall time skipped on 2026-03-08 forward by the gap', () => {
    const instant = fromLocal(wall(2026, 3, 8, 2, 30), 'America/New_York');
    expect(instant).toBe(at('2026-03-08T07:30:00Z'));
    expect(toLocal(instant, 'America/New_York')).toMatchObject({ hour: 3, minute: 30 });
  });
  it('resolves a New York wall time repeated on 2026-11-01 to its first, daylight-time occurrence', () => {
    expect(fromLocal(wall(2026, 11, 1, 1, 30), 'America/New_York')).toBe(at('2026-11-01T05:30:00Z'));
  });
  it('applies the half-hour offset of Asia/Kolkata', () => {
    expect(fromLocal(wall(2026, 1, 15, 9, 0), 'Asia/Kolkata')).toBe(at('2026-01-15T03:30:00Z'));
  });
  it('shifts a Lord Howe wall time skipped by its 30-minute spring-forward by 30 minutes', () => {
    const instant = fromLocal(wall(2026, 10, 4, 2, 15), 'Australia/Lord_Howe');
    expect(instant).toBe(at('2026-10-03T15:45:00Z'));
    expect(toLocal(instant, 'Australia/Lord_Howe')).toMatchObject({ hour: 2, minute: 45 });
  });
  it('resolves a Lord Howe wall time repeated by its 30-minute fall-back to the first occurrence', () => {
    expect(fromLocal(wall(2026, 4, 5, 1, 45), 'Australia/Lord_Howe')).toBe(at('2026-04-04T14:45:00Z'));
  });
  it('inverts toLocal for every hour of 2026 except the second pass through a repeated hour', () => {
    const start = at('2026-01-01T00:00:00Z');
    const misses: string[] = [];
    for (let instant = start; instant < start + 365 * 24 * HOUR; instant += HOUR) {
      if (fromLocal(toLocal(instant, 'Europe/Berlin'), 'Europe/Berlin') !== instant) misses.push(new Date(instant).toISOString());
    }
    expect(misses).toEqual(['2026-10-25T01:00:00.000Z']);
  });
});

describe('local date arithmetic', () => {
  it('adds days across month, year and leap-day boundaries', () => {
    expect(formatDate(addDays({ year: 2026, month: 12, day: 31 }, 1))).toBe('2027-01-01');
    expect(formatDate(addDays({ year: 2028, month: 2, day: 28 }, 1))).toBe('2028-02-29');
    expect(formatDate(addDays({ year: 2026, month: 3, day: 1 }, -1))).toBe('2026-02-28');
  });
  it('counts calendar days, not elapsed hours, across a 23-hour local day', () => {
    expect(daysBetween({ year: 2026, month: 3, day: 28 }, { year: 2026, month: 3, day: 30 })).toBe(2);
    expect(daysBetween({ year: 2026, month: 3, day: 30 }, { year: 2026, month: 3, day: 28 })).toBe(-2);
  });
  it('numbers days of the week from Sunday', () => {
    expect(dayOfWeek({ year: 2026, month: 3, day: 29 })).toBe(0);
    expect(dayOfWeek({ year: 2026, month: 12, day: 5 })).toBe(6);
  });
});
