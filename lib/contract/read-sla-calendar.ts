import type { Node } from 'yaml';
import { parseCron } from '../sla/cron.js';
import type { Sla, SlaSchedule } from './model.js';
import { parseTemporal } from './temporal.js';
import type { YamlReader } from './yaml-reader.js';

type Calendar = Pick<Sla, 'schedule' | 'partitionLag' | 'graceMinutes' | 'skipDates'>;

/**
 * The calendar keys of `sla`: which partitions are expected and when. A cron schedule names its
 * own deadlines; daily, weekdays and hourly take theirs from `arrival_by`.
 */
export function readCalendar(reader: YamlReader, slaNode: Node | null, get: (key: string) => Node | null | undefined, arrivalBy: string | undefined): Calendar {
  const scheduleNode = get('schedule');
  const schedule = scheduleNode === undefined ? { kind: 'daily' as const } : readSchedule(reader, scheduleNode, 'sla.schedule');
  const lagNode = get('partition_lag');
  const graceNode = get('grace_minutes');
  const skipNode = get('skip_dates');
  const partitionLag = lagNode === undefined ? 1 : reader.number(lagNode, 'sla.partition_lag', { integer: true, min: 0 }) ?? 1;
  const graceMinutes = graceNode === undefined ? 0 : reader.number(graceNode, 'sla.grace_minutes', { integer: true, min: 0 }) ?? 0;
  const skipDates = skipNode === undefined ? [] : readDates(reader, skipNode, 'sla.skip_dates');
  if (schedule?.kind === 'cron' && arrivalBy !== undefined) {
    reader.report('invalid_value', 'sla.arrival_by', get('arrival_by'), 'a cron schedule names its own deadlines; remove arrival_by');
  }
  if (schedule?.kind === 'hourly' && arrivalBy !== undefined && !arrivalBy.startsWith('00:')) {
    reader.report('invalid_value', 'sla.arrival_by', get('arrival_by'), `an hourly deadline is minutes past the hour, written 00:MM; found "${arrivalBy}"`);
  }
  if (schedule && schedule.kind !== 'cron' && arrivalBy === undefined && scheduleNode !== undefined) {
    reader.report('missing_key', 'sla.arrival_by', slaNode, `a ${schedule.kind} schedule needs arrival_by, the local time by which the due partition is published`);
  }
  return { schedule: schedule ?? { kind: 'daily' }, partitionLag, graceMinutes, skipDates };
}

/** `daily`, `weekdays`, `hourly` or a five-field cron expression; `path` names the key in problems. */
export function readSchedule(reader: YamlReader, node: Node | null, path: string): SlaSchedule | undefined {
  const text = reader.string(node, path, 'daily, weekdays, hourly or a cron expression');
  if (text === undefined) return undefined;
  if (text === 'daily' || text === 'weekdays' || text === 'hourly') return { kind: text };
  if (!/\s/.test(text.trim())) {
    reader.report('invalid_value', path, node, `expected daily, weekdays, hourly or a five-field cron expression such as "0 6 * * 1-5", found "${text}"`);
    return undefined;
  }
  const cron = parseCron(text);
  if ('error' in cron) {
    reader.report('invalid_value', path, node, cron.error);
    return undefined;
  }
  return { kind: 'cron', expression: text.trim() };
}

function readDates(reader: YamlReader, node: Node | null, path: string): string[] {
  const items = reader.stringList(node, path) ?? [];
  const valid = items.filter((text) => parseTemporal(text, 'date') !== undefined);
  if (valid.length !== items.length) {
    reader.report('invalid_value', path, node, `expected dates YYYY-MM-DD, found ${items.filter((t) => !valid.includes(t)).map((t) => `"${t}"`).join(', ')}`);
  }
  return valid;
}
