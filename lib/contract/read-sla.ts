import type { Node } from 'yaml';
import { SLA_SEVERITY_RULES, type Sla } from './model.js';
import { foreignKeyHints } from './foreign-keys.js';
import { readCalendar } from './read-sla-calendar.js';
import { readVolumeVsHistory } from './read-sla-volume.js';
import { readSeverity, undeclaredSlaRules, withoutUndeclared } from './read-severity.js';
import type { YamlReader } from './yaml-reader.js';

export const SLA_KEYS = [
  'schedule', 'arrival_by', 'timezone', 'partition_lag', 'grace_minutes', 'skip_dates', 'max_lag_hours', 'warn_lag_hours',
  'freshness_column', 'min_rows', 'max_rows', 'volume_vs_history', 'severity',
] as const;

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
  const warnLagHours = read('warn_lag_hours', (n, p) => reader.number(n, p, { min: 0 }));
  const freshnessColumn = read('freshness_column', (n, p) => reader.string(n, p));
  const minRows = read('min_rows', (n, p) => reader.number(n, p, { integer: true, min: 0 }));
  const maxRows = read('max_rows', (n, p) => reader.number(n, p, { integer: true, min: 0 }));
  const volumeVsHistory = read('volume_vs_history', (n) => readVolumeVsHistory(reader, n));
  checkLags(reader, get, maxLagHours, warnLagHours);
  if (arrivalBy !== undefined && get('timezone') === undefined) {
    reader.report('missing_key', 'sla.timezone', node, 'arrival_by needs a timezone (an IANA name such as Europe/Berlin)');
  }
  if (minRows !== undefined && maxRows !== undefined && minRows > maxRows) {
    reader.report('min_greater_than_max', 'sla.min_rows', get('min_rows'), 'min_rows is greater than max_rows');
  }
  const calendar = readCalendar(reader, node, get, arrivalBy);
  const rules = { maxLagHours, warnLagHours, minRows, maxRows, volumeVsHistory };
  const severity = read('severity', (n, p) => withoutUndeclared(reader, p, readSeverity(reader, n, p, SLA_SEVERITY_RULES), undeclaredSlaRules(rules), 'the sla'));
  return { ...calendar, arrivalBy, timezone, maxLagHours, freshnessColumn, minRows, maxRows, ...defined({ warnLagHours, volumeVsHistory, severity }) };
}

/** Both lags are measured from freshness_column's newest value; the warning must come before the failure. */
function checkLags(reader: YamlReader, get: (key: string) => Node | null | undefined, maxLagHours: number | undefined, warnLagHours: number | undefined): void {
  // A key that is present but wrong was reported already: only an absent one is missing.
  for (const [key, value] of [['max_lag_hours', maxLagHours], ['warn_lag_hours', warnLagHours]] as const) {
    if (value === undefined || get('freshness_column') !== undefined) continue;
    reader.report('freshness_column_missing', `sla.${key}`, get(key), `${key} needs freshness_column: the timestamp column whose newest value is compared with now`);
  }
  if (maxLagHours !== undefined && warnLagHours !== undefined && warnLagHours >= maxLagHours) {
    reader.report('warn_not_below_max', 'sla.warn_lag_hours', get('warn_lag_hours'), `warn_lag_hours (${warnLagHours}) must be below max_lag_hours (${maxLagHours}): a lag past max_lag_hours already fails the drop, so the warning would never come first`);
  }
}

/** The keys whose value is not undefined, so a contract without the new rules has no keys for them. */
function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
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
