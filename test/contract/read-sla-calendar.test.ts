import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';

const BASE = readFileSync('contracts/orders.v1.yaml', 'utf8');
const withSla = (sla: string) => BASE.replace(/sla:\n(?: {2}.*\n)+/, `sla:\n${sla.split('\n').map((l) => `  ${l}`).join('\n')}\n`);
const problems = (sla: string) => parseContract(withSla(sla), 'orders.v1.yaml').problems.map((p) => ({ code: p.code, path: p.path, message: p.message }));

describe('the calendar keys of sla', () => {
  it('defaults to a daily schedule with a one-day lag, no grace and no skipped dates', () => {
    const { contract } = parseContract(BASE, 'orders.v1.yaml');
    expect(contract?.sla).toMatchObject({ schedule: { kind: 'daily' }, partitionLag: 1, graceMinutes: 0, skipDates: [] });
  });

  it('reads weekdays, hourly and cron schedules with lag, grace and holidays', () => {
    const { contract } = parseContract(withSla('schedule: "0 6 * * 1-5"\ntimezone: Europe/Berlin\npartition_lag: 2\ngrace_minutes: 15\nskip_dates: ["2026-12-25"]'), 'orders.v1.yaml');
    expect(contract?.sla).toMatchObject({ schedule: { kind: 'cron', expression: '0 6 * * 1-5' }, partitionLag: 2, graceMinutes: 15, skipDates: ['2026-12-25'] });
  });

  it('rejects a cron expression that does not parse, naming the field', () => {
    expect(problems('schedule: "0 25 * * *"\ntimezone: UTC')).toEqual([{ code: 'invalid_value', path: 'sla.schedule', message: 'cron hour "25": values must lie in 0-23, ranges must ascend and steps be positive' }]);
    expect(problems('schedule: nightly\ntimezone: UTC\narrival_by: "06:00"')[0]?.message).toBe('expected daily, weekdays, hourly or a five-field cron expression such as "0 6 * * 1-5", found "nightly"');
  });

  it('rejects arrival_by beside a cron schedule, an hourly one that is not 00:MM, and a schedule without a time', () => {
    expect(problems('schedule: "0 6 * * *"\narrival_by: "06:00"\ntimezone: UTC').map((p) => p.path)).toEqual(['sla.arrival_by']);
    expect(problems('schedule: hourly\narrival_by: "06:20"\ntimezone: UTC')[0]?.message).toBe('an hourly deadline is minutes past the hour, written 00:MM; found "06:20"');
    expect(problems('schedule: weekdays\ntimezone: UTC')[0]?.message).toBe('a weekdays schedule needs arrival_by, the local time by which the due partition is published');
  });

  it('rejects skip dates that are not calendar dates', () => {
    expect(problems('arrival_by: "06:00"\ntimezone: UTC\nskip_dates: ["2026-02-30", "2026-12-25"]')).toEqual([{ code: 'invalid_value', path: 'sla.skip_dates', message: 'expected dates YYYY-MM-DD, found "2026-02-30"' }]);
  });
});
