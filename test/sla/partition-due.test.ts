import { describe, expect, it } from 'vitest';
import { judgedAt, partitionDueAt } from '../../lib/sla/partition-due.js';
import { ordersContract } from '../fixtures/gate-fixture.js';

// orders.v1: arrival_by 06:00 Europe/Berlin, partition lag 1 day, template dt={ds}.
const iso = (millis: number | undefined) => (millis === undefined ? undefined : new Date(millis).toISOString());

describe('partitionDueAt: when a partition was due', () => {
  it('is the clock SLA deadline in the contract time zone, a day after the partition date', () => {
    expect(iso(partitionDueAt(ordersContract(), 'dt=2026-11-29'))).toBe('2026-11-30T05:00:00.000Z');
    // Summer time: 06:00 in Berlin is 04:00 UTC.
    expect(iso(partitionDueAt(ordersContract(), 'dt=2026-07-01'))).toBe('2026-07-02T04:00:00.000Z');
  });

  it('follows partition_lag and weekday schedules', () => {
    const lagged = ordersContract((y) => y.replace('arrival_by: "06:00"', 'arrival_by: "06:00"\n  partition_lag: 2'));
    expect(iso(partitionDueAt(lagged, 'dt=2026-11-29'))).toBe('2026-12-01T05:00:00.000Z');
    const weekdays = ordersContract((y) => y.replace('arrival_by: "06:00"', 'arrival_by: "06:00"\n  schedule: weekdays'));
    // Friday 2026-12-04 is due on Monday 2026-12-07.
    expect(iso(partitionDueAt(weekdays, 'dt=2026-12-04'))).toBe('2026-12-07T05:00:00.000Z');
  });

  it('is the end of the period when the contract sets no clock, or the day is a skip date', () => {
    const noClock = ordersContract((y) => y.replace('  arrival_by: "06:00"\n', ''));
    expect(iso(partitionDueAt(noClock, 'dt=2026-11-29'))).toBe('2026-11-29T23:00:00.000Z');
    const holiday = ordersContract((y) => y.replace('arrival_by: "06:00"', 'arrival_by: "06:00"\n  skip_dates: [2026-12-25]'));
    expect(iso(partitionDueAt(holiday, 'dt=2026-12-25'))).toBe('2026-12-25T23:00:00.000Z');
    const hourly = ordersContract((y) => y.replace('partition: "dt={ds}"', 'partition: "dt={ds}/hr={hh}"').replace('  arrival_by: "06:00"\n', ''));
    expect(iso(partitionDueAt(hourly, 'dt=2026-11-29/hr=13'))).toBe('2026-11-29T13:00:00.000Z');
  });

  it('has no answer for a path the template does not fit', () => {
    expect(partitionDueAt(ordersContract(), 'day=2026-11-29')).toBeUndefined();
    expect(partitionDueAt(ordersContract(), 'dt=2026-02-30')).toBeUndefined();
  });
});

describe('judgedAt: the moment time rules are held to', () => {
  const due = Date.parse('2026-11-30T05:00:00Z');

  it('is the due time for a partition dropped after it was due (a backfill, a late re-drop)', () => {
    expect(judgedAt(ordersContract(), Date.parse('2026-12-29T16:00:00Z'), 'dt=2026-11-29')).toBe(due);
  });

  it('is the check time for a partition dropped before it was due, or with no partition known', () => {
    const early = Date.parse('2026-11-30T03:00:00Z');
    expect(judgedAt(ordersContract(), early, 'dt=2026-11-29')).toBe(early);
    expect(judgedAt(ordersContract(), early + 86_400_000 * 30, undefined)).toBe(early + 86_400_000 * 30);
  });
});
