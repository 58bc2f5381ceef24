import type { Contract } from '../contract/model.js';
import { matchPartition, type PartitionValues } from '../contract/partition-template.js';
import { duePartitions } from './sla-calendar.js';
import { addDays, fromLocal, type LocalDate } from './zoned-time.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * When a partition was due: its clock SLA's deadline (`arrival_by` in `sla.timezone`, after
 * `partition_lag` periods), or, when the contract sets no clock or the day is a skip date, the
 * end of the period it names (the next local midnight, or the next hour for `{hh}`). Undefined
 * for a path that does not fit the template, which has no date to be due by.
 */
export function partitionDueAt(contract: Contract, path: string): number | undefined {
  const template = contract.produces.partition;
  const values = matchPartition(template, path);
  if (!values) return undefined;
  const zone = contract.sla?.timezone ?? 'UTC';
  const { start, end } = periodOf(values, zone);
  const sla = contract.sla;
  if (sla) {
    // A deadline lies after its partition starts, within `partition_lag` periods and a weekend.
    const window = { from: start, to: start + (2 * sla.partitionLag + 8) * DAY };
    const due = duePartitions(sla, template, window).find((d) => d.path === path);
    if (due) return due.deadline;
  }
  return end;
}

/**
 * The moment freshness and `not_in_future` are judged at: the check time, or the partition's due
 * time when that came first. A backfill of a past day is then held to what was true when the day
 * was due, not to the wall clock of the re-drop; lateness is the clock SLA's to report.
 */
export function judgedAt(contract: Contract, now: number, partition: string | undefined): number {
  const due = partition === undefined ? undefined : partitionDueAt(contract, partition);
  return due === undefined ? now : Math.min(now, due);
}

function periodOf(values: PartitionValues, zone: string): { start: number; end: number } {
  const [year, month, day] = values.ds.split('-').map(Number) as [number, number, number];
  const date: LocalDate = { year, month, day };
  if (values.hh === undefined) {
    return { start: fromLocal({ ...date, hour: 0, minute: 0 }, zone), end: fromLocal({ ...addDays(date, 1), hour: 0, minute: 0 }, zone) };
  }
  const start = fromLocal({ ...date, hour: Number(values.hh), minute: 0 }, zone);
  return { start, end: start + HOUR };
}
