import type { Node } from 'yaml';
import { isOrderedType, isTemporalType, type ColumnType } from '../contract/column-type.js';
import type { ColumnSpec } from '../contract/model.js';
import { ExactValue } from '../contract/exact-value.js';
import { readBound, readPattern } from '../contract/read-column.js';
import { MILLIS_PER_DAY } from '../contract/temporal.js';
import { describeValue, type YamlReader } from '../contract/yaml-reader.js';
import { TYPE_OPTION_KEYS } from './odcs-keys.js';
import { odcsEntries } from './odcs-nodes.js';
import { notEnforced } from './odcs-warnings.js';
import { max as greatest, min as least } from './read-object-quality.js';

export type OptionRules = Pick<ColumnSpec, 'min' | 'max' | 'exactMin' | 'exactMax' | 'pattern' | 'minLength' | 'maxLength'>;

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const ALL_OPTIONS = [...new Set(Object.values(TYPE_OPTION_KEYS).flat())];
/** Options ODCS defines that no check of ours carries. */
const UNENFORCED_OPTIONS = ['multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'required'];
const UTC_NAMES = ['utc', 'etc/utc', 'gmt', 'z'];

/** `logicalTypeOptions` → value rules. `path` is the options' own path. */
export function readTypeOptions(reader: YamlReader, node: Node | null, path: string, logical: string | undefined, type: ColumnType): OptionRules {
  const entries = odcsEntries(reader, node, path, (logical && TYPE_OPTION_KEYS[logical]) || ALL_OPTIONS);
  if (!entries) return {};
  const at = (key: string): Option => ({ node: entries.get(key)?.value ?? null, path: `${path}.${key}`, key });
  // Reads an option only when present and, for a rule, only on a column type it applies to. An
  // option of the logical type on a physical type we cannot check it on (maxLength of a string
  // stored as BYTES) is valid ODCS: a warning.
  const validOdcs = (key: string) => logical !== undefined && (TYPE_OPTION_KEYS[logical] ?? []).includes(key);
  const read = <T>(key: string, applies: boolean, expected: string, fn: (option: Option) => T | undefined): T | undefined => {
    if (!entries.has(key)) return undefined;
    if (applies) return fn(at(key));
    if (validOdcs(key)) notEnforced(reader, at(key).path, at(key).node, `"${key}"`, `it applies to ${expected} columns and the files hold ${type.kind}`);
    else reader.report('rule_not_for_type', at(key).path, at(key).node, `"${key}" applies to ${expected} columns, not to ${type.kind}`);
    return undefined;
  };
  const isString = type.kind === 'string';
  const ordered = isOrderedType(type);
  const length = (o: Option) => reader.number(o.node, o.path, { integer: true, min: 0 });
  const minLength = read('minLength', isString, 'string', length);
  const maxLength = read('maxLength', isString, 'string', length);
  const pattern = read('pattern', isString, 'string', (o) => readPattern(reader, o.node, o.path));
  const bound = (o: Option) => readBound(reader, o.node, o.path, type, o.key === 'minimum' ? 'min' : 'max');
  const [minimum, maximum] = [read('minimum', ordered, 'numeric, date or timestamp', bound), read('maximum', ordered, 'numeric, date or timestamp', bound)];
  const min = greatest(minimum?.value, read('exclusiveMinimum', ordered, 'numeric, date or timestamp', (o) => exclusive(reader, o, type, 1)));
  const max = least(maximum?.value, read('exclusiveMaximum', ordered, 'numeric, date or timestamp', (o) => exclusive(reader, o, type, -1)));
  // The exact bound (exact-bounds.ts) where the inclusive one is the bound kept.
  const exact = (read: typeof minimum, kept: number | undefined, key: 'exactMin' | 'exactMax') => (read?.exact instanceof ExactValue && read.value === kept ? { [key]: String(read.exact) } : {});
  if (min !== undefined && max !== undefined && min > max) reader.report('min_greater_than_max', `${path}.minimum`, node, 'the minimum is greater than the maximum');
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) reader.report('min_greater_than_max', `${path}.minLength`, node, 'minLength is greater than maxLength');
  const format = entries.has('format') ? readFormat(reader, at('format'), type, pattern) : undefined;
  for (const key of UNENFORCED_OPTIONS) {
    if (entries.has(key)) notEnforced(reader, `${path}.${key}`, entries.get(key)?.key, `logicalTypeOptions.${key}`);
  }
  if (entries.has('defaultTimezone')) checkDefaultTimezone(reader, at('defaultTimezone'), type);
  return { min, max, ...exact(minimum, min, 'exactMin'), ...exact(maximum, max, 'exactMax'), pattern: pattern ?? format, minLength, maxLength };
}

interface Option {
  readonly node: Node | null;
  readonly path: string;
  readonly key: string;
}

/**
 * Our bounds are inclusive. An exclusive bound is exact where values are discrete: whole numbers,
 * decimals of a fixed scale and dates step by one unit. Floats and timestamps have no next value.
 */
function exclusive(reader: YamlReader, option: Option, type: ColumnType, direction: 1 | -1): number | undefined {
  const bound = readBound(reader, option.node, option.path, type, direction === 1 ? 'min' : 'max')?.value;
  if (bound === undefined) return undefined;
  const step = type.kind === 'int32' || type.kind === 'int64' ? 1 : type.kind === 'date' ? MILLIS_PER_DAY : type.kind === 'decimal' ? 10 ** -type.scale : undefined;
  if (step === undefined) {
    notEnforced(reader, option.path, option.node, `an exclusive bound on a ${type.kind} column`, 'its values have no next value to turn it inclusive; use minimum/maximum');
    return undefined;
  }
  const next = bound + direction * step;
  return type.kind === 'decimal' ? Number(next.toFixed(type.scale)) : next;
}

/** A string `format` of uuid becomes a pattern; other string formats are not checked. */
function readFormat(reader: YamlReader, option: Option, type: ColumnType, pattern: string | undefined): string | undefined {
  const format = reader.string(option.node, option.path, 'a format name');
  // Integer and number widths (i32, f64, ...) and `binary` chose the column type already.
  if (format === undefined || (type.kind !== 'string' && !isTemporalType(type))) return undefined;
  if (isTemporalType(type)) {
    // Bounds and text values are read as ISO-8601; a format spelling them the same way changes nothing.
    if (!/^yyyy-MM-dd/.test(format)) notEnforced(reader, option.path, option.node, `format "${format}"`, 'dates and timestamps in text files are read as ISO-8601');
    return undefined;
  }
  if (format === 'byte') return undefined; // base64 text: still a string
  if (format === 'uuid' && pattern === undefined) return UUID;
  notEnforced(reader, option.path, option.node, `format ${describeValue(format)}`, format === 'uuid' ? 'the column has a pattern already' : undefined);
  return undefined;
}

function checkDefaultTimezone(reader: YamlReader, option: Option, type: ColumnType): void {
  if (type.kind !== 'timestamp_ntz') return;
  const zone = reader.string(option.node, option.path, 'a time zone name');
  if (zone !== undefined && !UTC_NAMES.includes(zone.toLowerCase())) {
    notEnforced(reader, option.path, option.node, `defaultTimezone "${zone}"`, 'wall-clock values are compared with bounds as if in UTC');
  }
}
