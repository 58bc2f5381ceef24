import type { Node } from 'yaml';
import type { Sla } from './model.js';
import { foreignKeyHints } from './foreign-keys.js';
import { readCalendar } from './read-sla-calendar.js';
import type { YamlReader } from './yaml-reader.js';

export const SLA_KEYS = ['schedule', 'arrival_by', 'timezone', 'partition_lag', 'grace_minutes', 'skip_dates', 'max_lag_hours', 'freshness_column', 'min_rows', 'max_rows'] as const;

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Reads `sla`; whether `freshness_column` names a temporal column is checked with the schema. */
export function readSla(reader: YamlReader, node: Node | null): Sla | undefined {
  const entries = reader.map(node, 'sla', SLA_KEYS, foreignKeyHints('sla'));
  if (!entries) return undefined;
  const get = (key: string) => reader.field(entries, node, 'sla', key, false);
  const read = <T>(key: string, fn: (n: Node | null, path: string) => T | undefined): T | undefined => {
    const value = get(key);
    return value === undefined ? undefined : fn(value, `sla.${key}`);
  };
  const arrivalBy = read('arrival_by', (n, p) => readClock(reader, n, p));
  const timezone = read('timezone', (n, p) => readTimezone(reader, n, p));
  const maxLagHours = read('max_lag_hours', (n, p) => reader.number(n, p, { min: 0 }));
  const freshnessColumn = read('freshness_column', (n, p) => reader.string(n, p));
  const minRows = read('min_rows', (n, p) => reader.number(n, p, { integer: true, min: 0 }));
  const maxRows = read('max_rows', (n, p) => reader.number(n, p, { integer: true, min: 0 }));
  // A key that is present but wrong was reported already: only an absent one is missing.
  if (maxLagHours !== undefined && get('freshness_column') === undefined) {
    reader.report('freshness_column_missing', 'sla.max_lag_hours', get('max_lag_hours'), 'max_lag_hours needs freshness_column: the timestamp column whose newest value is compared with now');
  }
  if (arrivalBy !== undefined && get('timezone') === undefined) {
    reader.report('missing_key', 'sla.timezone', node, 'arrival_by needs a timezone (an IANA name such as Europe/Berlin)');
  }
  if (minRows !== undefined && maxRows !== undefined && minRows > maxRows) {
    reader.report('min_greater_than_max', 'sla.min_rows', get('min_rows'), 'min_rows is greater than max_rows');
  }
  const calendar = readCalendar(reader, node, get, arrivalBy);
  return { ...calendar, arrivalBy, timezone, maxLagHours, freshnessColumn, minRows, maxRows };
}

function readClock(reader: YamlReader, node: Node | null, path: string): string | undefined {
  const text = reader.string(node, path, 'a time of day HH:MM');
  if (text === undefined || CLOCK.test(text)) return text;
  reader.report('invalid_value', path, node, `expected a time of day HH:MM (24-hour, quoted), found "${text}"`);
  return undefined;
}

/** An IANA zone name, checked by the runtime's own time-zone data. */
export function readTimezone(reader: YamlReader, node: Node | null, path: string): string | undefined {
  const zone = reader.string(node, path, 'an IANA time zone name');
  if (zone === undefined) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    reader.report('invalid_value', path, node, `"${zone}" is not an IANA time zone name such as Europe/Berlin or UTC`);
    return undefined;
  }
}
