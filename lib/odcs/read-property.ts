import type { Node } from 'yaml';
import { parseColumnType } from '../contract/column-type.js';
import type { ColumnSpec } from '../contract/model.js';
import type { Entries, YamlReader } from '../contract/yaml-reader.js';
import { PROPERTY_CUSTOM, readCustom, readCustomProperties, type CustomValues } from './custom-properties.js';
import { PROPERTY_KEYS } from './odcs-keys.js';
import { mapOdcsType, type TypeMapping } from './odcs-type.js';
import { odcsEntries, optional, peek, peekChild } from './odcs-nodes.js';
import { notEnforced } from './odcs-warnings.js';
import { readColumnReference, readColumnSeverity } from './read-property-keys.js';
import { readPropertyExtras, readQualityRules } from './read-property-rules.js';
import { readPropertyQuality } from './read-property-quality.js';
import type { RuleTolerance } from './read-quality.js';
import { readTypeOptions } from './read-type-options.js';

/** One `properties[]` entry, read as far as it goes; cross-property checks are the caller's. */
export interface PropertyRead {
  /** Present when the property is a column we check and has no errors. */
  readonly column?: ColumnSpec;
  /** The column name: `physicalName` when given, since that is what the files hold; else `name`. */
  readonly name?: string;
  /** Every name the property may be referred to by elsewhere (`name` and `physicalName`). */
  readonly aliases: readonly string[];
  /** A type no check of ours covers (object, array, time): left out of the columns. */
  readonly skipped: boolean;
  readonly primaryKey?: { readonly position?: number };
  readonly requiredWhen?: { readonly column: string; readonly node: Node | null; readonly path: string };
  /** Thresholds of its quality rules that allow some failing rows (see read-tolerance.ts). */
  readonly tolerances?: readonly RuleTolerance[];
  readonly node: Node | null;
  readonly path: string;
}

export function readProperty(reader: YamlReader, node: Node | null, path: string): PropertyRead {
  const entries = odcsEntries(reader, node, path, PROPERTY_KEYS);
  if (!entries) return { aliases: [], skipped: false, node, path };
  const text = (key: string) => optional(entries, key, (n) => reader.string(n, `${path}.${key}`));
  if (!entries.has('name')) reader.report('missing_key', `${path}.name`, node, 'missing required key "name"');
  const aliases = [text('name'), text('physicalName')].filter((n): n is string => n !== undefined);
  const name = aliases.at(-1);
  const custom = readCustomProperties(reader, entries.get('customProperties')?.value, `${path}.customProperties`, PROPERTY_CUSTOM);
  const mapping = readPropertyType(reader, entries, path, custom);
  const required = optional(entries, 'required', (n) => reader.boolean(n, `${path}.required`)) ?? false;
  const unique = optional(entries, 'unique', (n) => reader.boolean(n, `${path}.unique`)) ?? false;
  const primaryKey = readPrimaryKey(reader, entries, path);
  const description = text('description');
  if (peek(reader, entries.get('partitioned')?.value) === true) {
    notEnforced(reader, `${path}.partitioned`, entries.get('partitioned')?.key, 'partitioned: true', 'partitions come from the partition template, and the column is expected inside the files');
  }
  const base = { name, aliases, primaryKey, node, path };
  if (mapping?.kind === 'unsupported') {
    notEnforced(reader, path, node, `column "${name ?? '?'}"`, `${mapping.reason}; the column and its rules are left out of the checks`);
    return { ...base, skipped: true };
  }
  if (mapping?.kind !== 'type') return { ...base, skipped: false };
  const options = optional(entries, 'logicalTypeOptions', (n) => readTypeOptions(reader, n, `${path}.logicalTypeOptions`, text('logicalType'), mapping.type)) ?? {};
  const quality = readPropertyQuality(reader, entries, path);
  const rules = readQualityRules(reader, mapping.type, options, quality);
  const { extras, requiredWhen } = readPropertyExtras(reader, custom, mapping.type);
  const references = readColumnReference(reader, entries, custom, path);
  if (name === undefined) return { ...base, skipped: false };
  const column: ColumnSpec = {
    name, type: mapping.type, typeText: mapping.typeText, required: required || rules.required, unique: unique || rules.unique, description,
    enum: rules.enum, pattern: rules.pattern, minLength: options.minLength, maxLength: options.maxLength, min: options.min, max: options.max, ...extras,
    ...(options.exactMin === undefined ? {} : { exactMin: options.exactMin }), ...(options.exactMax === undefined ? {} : { exactMax: options.exactMax }),
    ...(references ? { references } : {}),
  };
  const severity = readColumnSeverity(reader, custom, quality, { required, unique, pattern: options.pattern !== undefined }, column, primaryKey !== undefined);
  return { ...base, column: severity ? { ...column, severity } : column, skipped: false, requiredWhen, tolerances: quality.tolerances ?? [] };
}

/** `contractGate.type` first, then the ODCS logical and physical types (see odcs-type.ts). */
function readPropertyType(reader: YamlReader, entries: Entries, path: string, custom: CustomValues): TypeMapping | undefined {
  if (custom.has('type')) {
    return readCustom(custom, 'type', (n, p) => {
      const text = reader.string(n, p, 'a column type');
      const type = text === undefined ? undefined : parseColumnType(text);
      if (text !== undefined && !type) reader.report('invalid_value', p, n, `unknown type "${text}"; expected string, int32, int64, float32, float64, decimal(p,s), boolean, date, timestamp, timestamp_ntz or binary`);
      return type && text ? { kind: 'type', type, typeText: text } : undefined;
    });
  }
  const logicalType = optional(entries, 'logicalType', (n) => reader.string(n, `${path}.logicalType`));
  const physicalType = optional(entries, 'physicalType', (n) => reader.string(n, `${path}.physicalType`));
  const options = entries.get('logicalTypeOptions')?.value;
  const format = peekChild(reader, options, 'format');
  const timezone = peekChild(reader, options, 'timezone');
  const mapping = mapOdcsType({
    logicalType, physicalType,
    ...(typeof format === 'string' ? { format } : {}),
    ...(typeof timezone === 'boolean' ? { timezone } : {}),
  });
  if (mapping.kind === 'error') {
    const key = entries.has('logicalType') ? 'logicalType' : entries.has('physicalType') ? 'physicalType' : undefined;
    reader.report('invalid_value', key ? `${path}.${key}` : path, key ? entries.get(key)?.value : entries.get('name')?.key, mapping.message);
  }
  if (mapping.kind === 'type' && mapping.note) reader.report('invalid_value', `${path}.physicalType`, entries.get('physicalType')?.value, mapping.note, 'warning');
  return mapping.kind === 'error' ? undefined : mapping;
}

/** Primary key columns, ordered later by `primaryKeyPosition` (1-based; -1 or absent: by declaration). */
function readPrimaryKey(reader: YamlReader, entries: Entries, path: string): PropertyRead['primaryKey'] {
  const isKey = optional(entries, 'primaryKey', (n) => reader.boolean(n, `${path}.primaryKey`));
  const position = optional(entries, 'primaryKeyPosition', (n) => reader.number(n, `${path}.primaryKeyPosition`, { integer: true }));
  if (!isKey) return undefined;
  return position !== undefined && position > 0 ? { position } : {};
}
