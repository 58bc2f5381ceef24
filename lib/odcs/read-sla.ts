import type { Node } from 'yaml';
import type { Sla, SlaSchedule } from '../contract/model.js';
import { parseTemporal } from '../contract/temporal.js';
import { readTimezone } from '../contract/read-sla.js';
import { readSchedule } from '../contract/read-sla-calendar.js';
import type { YamlReader } from '../contract/yaml-reader.js';
import { readCustom, SLA_CUSTOM_KEYS, type CustomValues } from './custom-properties.js';
import type { DatasetRead } from './read-dataset.js';
import { freshnessColumn, type SlaPromises } from './read-sla-properties.js';
import { checkWarnLag, readSlaRules, slaSeverity, type SlaRules } from './read-sla-rules.js';

/** `contractGate.sla`: the calendar ODCS has no words for. */
interface Calendar {
  readonly schedule?: SlaSchedule;
  readonly scheduleNode?: Node | null;
  readonly timezone?: string;
  readonly partitionLag?: number;
  readonly graceMinutes?: number;
  readonly skipDates?: readonly string[];
  readonly freshnessColumn?: string;
  readonly rules: SlaRules;
  readonly node: Node | null;
  readonly path: string;
}

/**
 * Our SLA from the ODCS promises, the schema object's rowCount and `contractGate.sla`. There is
 * one when any of them says something; `contractGate.sla` alone (even empty) keeps an SLA that
 * has only defaults, so a native contract round-trips.
 */
export function assembleSla(reader: YamlReader, custom: CustomValues, promises: SlaPromises, dataset: DatasetRead | undefined): Sla | undefined {
  const calendar = readCustom(custom, 'sla', (n, p) => readCalendar(reader, n, p, dataset));
  const volume = dataset?.volume ?? {};
  const { freshness, arrival } = promises;
  if (!custom.has('sla') && !freshness && !arrival && volume.minRows === undefined && volume.maxRows === undefined) return undefined;
  let timezone = calendar?.timezone ?? arrival?.timezone;
  if (arrival && timezone === undefined) {
    reader.report('missing_key', arrival.path, arrival.node, `timeOfAvailability ${arrival.arrivalBy} has no UTC offset and contractGate.sla names no timezone; it is read as UTC`, 'warning');
    timezone = 'UTC';
  }
  checkSchedule(reader, calendar, arrival);
  if (freshness && calendar?.freshnessColumn !== undefined && calendar.freshnessColumn !== freshness.column) {
    reader.report('invalid_value', `${calendar.path}.freshnessColumn`, calendar.node, `the latency SLA property checks "${freshness.column}"; freshnessColumn names "${calendar.freshnessColumn}"`);
  }
  const sla: Sla = {
    schedule: calendar?.schedule ?? { kind: 'daily' },
    arrivalBy: arrival?.arrivalBy,
    partitionLag: calendar?.partitionLag ?? 1,
    graceMinutes: calendar?.graceMinutes ?? 0,
    skipDates: calendar?.skipDates ?? [],
    ...(timezone === undefined ? {} : { timezone }),
    maxLagHours: freshness?.maxLagHours,
    freshnessColumn: freshness?.column ?? calendar?.freshnessColumn,
    minRows: volume.minRows,
    maxRows: volume.maxRows,
    ...(calendar?.rules.warnLagHours === undefined ? {} : { warnLagHours: calendar.rules.warnLagHours }),
    ...(calendar?.rules.volumeVsHistory ? { volumeVsHistory: calendar.rules.volumeVsHistory } : {}),
  };
  if (calendar) checkWarnLag(reader, sla, `${calendar.path}.warnLagHours`, calendar.node);
  const severity = slaSeverity(reader, calendar?.rules ?? {}, volume.severity, sla);
  return severity ? { ...sla, severity } : sla;
}

/** The native contract's rules for schedules and deadlines, placed on the ODCS keys. */
function checkSchedule(reader: YamlReader, calendar: Calendar | undefined, arrival: SlaPromises['arrival']): void {
  const schedule = calendar?.schedule;
  if (!schedule || !calendar) return;
  const where = { path: `${calendar.path}.schedule`, node: calendar.scheduleNode ?? calendar.node };
  if (schedule.kind === 'cron' && arrival) {
    reader.report('invalid_value', arrival.path, arrival.node, 'a cron schedule names its own deadlines; remove timeOfAvailability');
  } else if (schedule.kind === 'hourly' && arrival && !arrival.arrivalBy.startsWith('00:')) {
    reader.report('invalid_value', arrival.path, arrival.node, `an hourly deadline is minutes past the hour, written 00:MM; found "${arrival.arrivalBy}"`);
  } else if (schedule.kind !== 'cron' && !arrival) {
    reader.report('missing_key', where.path, where.node, `a ${schedule.kind} schedule needs a timeOfAvailability SLA property: the time by which the due partition is published`);
  }
}

function readCalendar(reader: YamlReader, node: Node | null, path: string, dataset: DatasetRead | undefined): Calendar | undefined {
  const fields = reader.map(node, path, SLA_CUSTOM_KEYS);
  if (!fields) return undefined;
  const get = <T>(key: string, read: (n: Node | null, p: string) => T | undefined): T | undefined => {
    const value = reader.field(fields, node, path, key);
    return value === undefined ? undefined : read(value, `${path}.${key}`);
  };
  return {
    schedule: get('schedule', (n, p) => readSchedule(reader, n, p)),
    scheduleNode: fields.get('schedule')?.value,
    timezone: get('timezone', (n, p) => readTimezone(reader, n, p)),
    partitionLag: get('partitionLag', (n, p) => reader.number(n, p, { integer: true, min: 0 })),
    graceMinutes: get('graceMinutes', (n, p) => reader.number(n, p, { integer: true, min: 0 })),
    skipDates: get('skipDates', (n, p) => readDates(reader, n, p)),
    // The column whose newest value _SUCCESS records, for a contract without a latency promise.
    freshnessColumn: get('freshnessColumn', (n, p) => {
      const name = reader.string(n, p);
      return name === undefined ? undefined : freshnessColumn(reader, name, n, p, dataset);
    }),
    rules: readSlaRules(reader, get),
    node,
    path,
  };
}

function readDates(reader: YamlReader, node: Node | null, path: string): string[] | undefined {
  const items = reader.stringList(node, path);
  const wrong = items?.filter((text) => parseTemporal(text, 'date') === undefined) ?? [];
  if (wrong.length > 0) reader.report('invalid_value', path, node, `expected dates YYYY-MM-DD, found ${wrong.map((t) => `"${t}"`).join(', ')}`);
  return items && wrong.length === 0 ? items : undefined;
}
