import type { Node } from 'yaml';
import { isTemporalType } from '../contract/column-type.js';
import { parseTemporal } from '../contract/temporal.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { SLA_PROPERTY_KEYS } from './odcs-keys.js';
import { odcsEntries, odcsItems, optional, peek } from './odcs-nodes.js';
import { notEnforced } from './odcs-warnings.js';
import { checkColumnReference, type DatasetRead } from './read-dataset.js';

/** What `slaProperties` say that a gate can hold a producer to. */
export interface SlaPromises {
  readonly freshness?: { readonly column: string; readonly maxLagHours: number };
  readonly arrival?: { readonly arrivalBy: string; readonly timezone?: string; readonly node: Node | null; readonly path: string };
  /** The `endOfLife` date, the default sunset. */
  readonly endOfLife?: string;
}

// ODCS names SLA properties case-insensitively and has two-letter synonyms.
const LATENCY = ['latency', 'ly', 'freshness'];
const ARRIVAL = ['timeofavailability'];
const END_OF_LIFE = ['endoflife', 'el'];

const HOURS_PER_UNIT: Readonly<Record<string, number>> = {
  min: 1 / 60, mins: 1 / 60, minute: 1 / 60, minutes: 1 / 60,
  h: 1, hr: 1, hrs: 1, hour: 1, hours: 1,
  d: 24, day: 24, days: 24,
  w: 168, week: 168, weeks: 168,
};

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

export function readSlaProperties(reader: YamlReader, top: Entries, dataset: DatasetRead | undefined): SlaPromises {
  const defaultElement = optional(top, 'slaDefaultElement', (n) => reader.string(n, 'slaDefaultElement'));
  let promises: SlaPromises = {};
  const seen = new Set<string>();
  for (const { node, path } of odcsItems(reader, top, '', 'slaProperties')) {
    const entries = odcsEntries(reader, node, path, SLA_PROPERTY_KEYS);
    const property = entries && optional(entries, 'property', (n) => reader.string(n, `${path}.property`));
    if (!entries || property === undefined) continue;
    const kind = property.toLowerCase();
    const group = LATENCY.includes(kind) ? 'latency' : ARRIVAL.includes(kind) ? 'arrival' : END_OF_LIFE.includes(kind) ? 'endOfLife' : undefined;
    if (group === undefined) {
      notEnforced(reader, path, node, `SLA property "${property}"`);
    } else if (seen.has(group)) {
      notEnforced(reader, path, node, `a second "${property}"`, 'one is checked: the first');
    } else if (group === 'latency') {
      promises = { ...promises, freshness: readLatency(reader, entries, path, node, defaultElement, dataset) };
    } else if (group === 'arrival') {
      promises = { ...promises, arrival: readArrival(reader, entries, path) };
    } else {
      promises = { ...promises, endOfLife: readEndOfLife(reader, entries, path) };
    }
    if (group) seen.add(group);
  }
  return promises;
}

/** Units under a minute: a latency in them is a serving promise (a query answers in 500ms), not data freshness. */
const SERVING_UNITS = ['ms', 'msec', 'millisecond', 'milliseconds', 's', 'sec', 'secs', 'second', 'seconds'];
/** ODCS examples write the unit into the value: `value: 500ms`, `value: 4 h`. */
const VALUE_WITH_UNIT = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*$/i;

/** `latency` of `value` `unit` on `element`: the newest value of that column may lag now by that much. */
function readLatency(reader: YamlReader, entries: Entries, path: string, node: Node | null, defaultElement: string | undefined, dataset: DatasetRead | undefined): SlaPromises['freshness'] {
  const written = peek(reader, entries.get('value')?.value);
  const inline = typeof written === 'string' ? VALUE_WITH_UNIT.exec(written) : null;
  const unitText = peek(reader, entries.get('unit')?.value);
  const unitWord = (inline?.[2] ?? (typeof unitText === 'string' ? unitText : '')).toLowerCase();
  if (SERVING_UNITS.includes(unitWord)) {
    notEnforced(reader, path, node, `latency ${inline ? written : `${String(written)} ${unitWord}`}`, 'a latency under a minute is a serving promise, not the freshness of the data');
    return undefined;
  }
  if (inline && !entries.has('unit') && HOURS_PER_UNIT[unitWord] !== undefined) return latencyOf(reader, entries, path, node, defaultElement, dataset, Number(inline[1]) * HOURS_PER_UNIT[unitWord]!);
  const value = required(reader, entries, path, node, 'value', (n, p) => reader.number(n, p, { min: 0 }));
  const unit = required(reader, entries, path, node, 'unit', (n, p) => {
    const text = reader.string(n, p, 'a time unit');
    if (text !== undefined && HOURS_PER_UNIT[text.toLowerCase()] === undefined) reader.report('invalid_value', p, n, `unknown unit "${text}" for latency; expected min, h, d or w`);
    return text === undefined ? undefined : HOURS_PER_UNIT[text.toLowerCase()];
  });
  return latencyOf(reader, entries, path, node, defaultElement, dataset, value === undefined || unit === undefined ? undefined : value * unit);
}

function latencyOf(reader: YamlReader, entries: Entries, path: string, node: Node | null, defaultElement: string | undefined, dataset: DatasetRead | undefined, hours: number | undefined): SlaPromises['freshness'] {
  const elementNode = entries.get('element')?.value;
  const element = elementNode === undefined ? defaultElement : reader.string(elementNode, `${path}.element`);
  if (element === undefined) {
    if (elementNode === undefined) reader.report('freshness_column_missing', `${path}.element`, node, 'latency needs "element": the timestamp column whose newest value is compared with now');
    return undefined;
  }
  const column = freshnessColumn(reader, element, elementNode ?? node, `${path}.element`, dataset);
  return hours === undefined || column === undefined ? undefined : { column, maxLagHours: hours };
}

/** An element is `object.column` or `column`; the object part is not checked (examples use loose names). */
export function freshnessColumn(reader: YamlReader, element: string, node: Node | null, path: string, dataset: DatasetRead | undefined): string | undefined {
  if (!dataset) return undefined;
  if (element.includes(',')) {
    reader.report('invalid_value', path, node, `"${element}" names several elements; freshness is checked on one column`);
    return undefined;
  }
  const prefix = dataset.objectNames.find((name) => element.startsWith(`${name}.`));
  const reference = dataset.find(element) ? element : prefix ? element.slice(prefix.length + 1) : element.slice(element.lastIndexOf('.') + 1);
  const target = dataset.find(reference);
  if (!checkColumnReference(reader, target, element, path, node) || !target?.column) return undefined;
  const column = target.column;
  if (!isTemporalType(column.type)) {
    reader.report('rule_not_for_type', path, node, `freshness needs a date or timestamp column; "${column.name}" is ${column.typeText}`);
    return undefined;
  }
  return column.name;
}

/** `timeOfAvailability`: HH:MM, optionally with a UTC offset, which becomes a fixed-offset zone. */
function readArrival(reader: YamlReader, entries: Entries, path: string): SlaPromises['arrival'] {
  const node = entries.get('value')?.value ?? null;
  const text = required(reader, entries, path, null, 'value', (n, p) => reader.string(n, p, 'a time of day HH:MM'));
  const match = text === undefined ? null : TIME.exec(text);
  if (text === undefined || !match || (match[3] ?? '00') !== '00') {
    if (text !== undefined) reader.report('invalid_value', `${path}.value`, node, `expected a time of day HH:MM, optionally with an offset such as 09:00-08:00, found "${text}"`);
    return undefined;
  }
  const arrivalBy = `${match[1]}:${match[2]}`;
  const timezone = match[4] === undefined ? undefined : offsetZone(match[4]);
  if (timezone === null) reader.report('invalid_value', `${path}.value`, node, `offset ${match[4]} is not a whole number of hours; give an IANA zone in contractGate.sla.timezone`);
  return timezone === null ? undefined : { arrivalBy, ...(timezone ? { timezone } : {}), node, path: `${path}.value` };
}

/** IANA's fixed-offset zones count the other way: UTC-08:00 is Etc/GMT+8. */
function offsetZone(offset: string): string | null {
  if (offset === 'Z') return 'UTC';
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  if (Number(digits.slice(2) || 0) !== 0 || hours > 14) return null;
  return hours === 0 ? 'UTC' : `Etc/GMT${offset.startsWith('-') ? '+' : '-'}${hours}`;
}

function readEndOfLife(reader: YamlReader, entries: Entries, path: string): string | undefined {
  const text = required(reader, entries, path, null, 'value', (n, p) => {
    const value = reader.string(n, p, 'a date (YYYY-MM-DD) or timestamp');
    const date = value?.slice(0, 10);
    if (value !== undefined && (date === undefined || parseTemporal(date, 'date') === undefined)) reader.report('invalid_value', p, n, `expected a date (YYYY-MM-DD), found "${value}"`);
    return date !== undefined && parseTemporal(date, 'date') !== undefined ? date : undefined;
  });
  return text;
}

function required<T>(reader: YamlReader, entries: Entries, path: string, node: Node | null, key: string, read: (n: Node | null, p: string) => T | undefined): T | undefined {
  const entry = entries.get(key);
  if (entry) return read(entry.value, `${path}.${key}`);
  reader.report('missing_key', `${path}.${key}`, node ?? entries.get('property')?.key, `missing required key "${key}"`);
  return undefined;
}
