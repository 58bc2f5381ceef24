import { isMap, isScalar, type Node } from 'yaml';
import { COLUMN_SEVERITY_RULES, SCHEMA_SEVERITY_RULES, SLA_SEVERITY_RULES } from './model.js';
import type { ForeignKeyHint } from './yaml-reader.js';

/**
 * Keys other contract formats use for rules the native format has under another name: dbt, JSON
 * Schema, ODCS and the YAML shapes this project grew from (see lib/import/). Someone who writes
 * `nullable: false` in a native contract meant `required: true`; "did you mean" by spelling would
 * never get there, so the message names the native key, with the value rewritten where it can be.
 */
type Rewrite = (value: Node | null) => string;

const IMPORT = 'or convert the whole file with contract-gate import';

const COLUMN: Readonly<Record<string, Rewrite>> = {
  nullable: (v) => (scalar(v) === false ? 'write required: true (nullable: false means a value is required)' : 'remove it: columns may be null unless required: true'),
  not_null: (v) => (scalar(v) === false ? 'remove it: columns may be null unless required: true' : 'write required: true'),
  allowed_values: (v) => `write enum${list(v)}`,
  allowed: (v) => `write enum${list(v)}`,
  accepted_values: (v) => `write enum${list(v)}`,
  values: (v) => `write enum${list(v)}`,
  range: (v) => `write min and max as keys of the column${bounds(v)}`,
  minimum: (v) => `write min${valueOf(v)}`,
  maximum: (v) => `write max${valueOf(v)}`,
  min_value: (v) => `write min${valueOf(v)}`,
  max_value: (v) => `write max${valueOf(v)}`,
  minLength: (v) => `write min_length${valueOf(v)}`,
  maxLength: (v) => `write max_length${valueOf(v)}`,
  regex: (v) => `write pattern${valueOf(v)}`,
  matches_regex: (v) => `write pattern${valueOf(v)}`,
  data_type: (v) => `write type${valueOf(v)} (a native type: string, int64, decimal(p,s), timestamp, ...)`,
  not_null_when: () => 'write required_when: { column: <column>, in: [<values>] }',
  primary_key: () => 'list the column in schema.grain: the grain is unique and non-null',
  primaryKey: () => 'list the column in schema.grain: the grain is unique and non-null',
  tests: () => `write each rule as a key of the column (required, unique, enum, pattern, min, max, not_in_future), ${IMPORT}`,
  data_tests: () => `write each rule as a key of the column (required, unique, enum, pattern, min, max, not_in_future), ${IMPORT}`,
  constraints: () => 'write required: true for not_null, unique: true for unique, and list a primary key in schema.grain',
  relationships: (v) => `write references${reference(v)}`,
  foreign_key: (v) => `write references${reference(v)}`,
  foreignKey: (v) => `write references${reference(v)}`,
  fk: (v) => `write references${reference(v)}`,
};

const SCHEMA: Readonly<Record<string, Rewrite>> = {
  fields: () => 'write columns: the list of columns is schema.columns',
  primary_key: (v) => `write grain${list(v)}`,
  primaryKey: (v) => `write grain${list(v)}`,
  uniqueness: (v) => `write grain${list(v)}`,
  additionalProperties: (v) => `write extra_columns: ${scalar(v) === false ? 'reject' : 'allow'}`,
};

const TOP: Readonly<Record<string, Rewrite>> = {
  dataset: (v) => `write name${valueOf(v)}`,
  id: (v) => `write name${valueOf(v)}`,
  columns: () => 'the columns go under schema: { columns: [...] }',
  fields: () => 'the columns go under schema: { columns: [...] }',
  producer: () => 'write owner: { team: <team>, notify: [<addresses to page>] }',
  contract: () => `the fields of "contract" go at the top of a native contract (name, version, owner), ${IMPORT}`,
  freshness_hours: (v) => `write sla: { max_lag_hours${valueOf(v)}, freshness_column: <timestamp column> }`,
  freshness_error_after_minutes: (v) => `write sla: { max_lag_hours: <hours>, freshness_column: <timestamp column> }${minutes(v, 'max_lag_hours')}`,
  freshness_warn_after_minutes: (v) => `write sla: { warn_lag_hours: <hours>, freshness_column: <timestamp column> }${minutes(v, 'warn_lag_hours')}`,
  row_threshold: (v) => `write on_violation: { ${tolerance(v)} }`,
  tolerance: (v) => `write on_violation: { ${tolerance(v)} }`,
  row_tolerance: (v) => `write on_violation: { ${tolerance(v)} }`,
  max_invalid_rows: (v) => `write on_violation: { ${tolerance(v)} }`,
  severity: () => 'severity goes on a column (severity: warn), under schema (severity: { grain: warn }) or under sla (severity: { min_rows: warn })',
  quality: () => 'write quality rules on the columns (required, unique, enum, ...) and a unique key as schema.grain',
  primary_key: (v) => `write schema.grain${list(v)}`,
  apiVersion: () => 'an ODCS v3 contract needs both kind: DataContract and apiVersion: v3.x',
  kind: () => 'an ODCS v3 contract needs both kind: DataContract and apiVersion: v3.x',
  models: () => `this is a dbt schema.yml: ${IMPORT.replace('or ', '')} --from dbt`,
  $schema: () => `this is a JSON Schema: ${IMPORT.replace('or ', '')} --from jsonschema`,
};

const SLA: Readonly<Record<string, Rewrite>> = {
  freshness_hours: (v) => `write max_lag_hours${valueOf(v)}`,
  loaded_at_field: (v) => `write freshness_column${valueOf(v)}`,
  error_after: (v) => `write max_lag_hours${hours(v)}: the lag in hours that fails a drop`,
  warn_after: (v) => `write warn_lag_hours${hours(v)}: the lag in hours that warns, below max_lag_hours`,
  freshness_error_after_minutes: (v) => `write max_lag_hours: <hours>${minutes(v, 'max_lag_hours')}`,
  freshness_warn_after_minutes: (v) => `write warn_lag_hours: <hours>${minutes(v, 'warn_lag_hours')}`,
  lookback: () => 'write it under volume_vs_history: { lookback: 7, min_ratio: 0.5, max_ratio: 2 }',
  min_ratio: () => 'write it under volume_vs_history: { lookback: 7, min_ratio: 0.5, max_ratio: 2 }',
  max_ratio: () => 'write it under volume_vs_history: { lookback: 7, min_ratio: 0.5, max_ratio: 2 }',
  row_tolerance: (v) => `on_violation goes at the top of the contract: on_violation: { ${tolerance(v)} }`,
  max_invalid_rows: (v) => `on_violation goes at the top of the contract: on_violation: { ${tolerance(v)} }`,
};

/** dbt's `relationships: { to: ref('customers'), field: id }` and the like, inside `references`. */
const REFERENCES: Readonly<Record<string, Rewrite>> = {
  to: (v) => `write contract${valueOf(v, refName)}: the name of the referenced contract`,
  table: (v) => `write contract${valueOf(v)}: the name of the referenced contract`,
  dataset: (v) => `write contract${valueOf(v)}: the name of the referenced contract`,
  field: (v) => `write column${valueOf(v)}: the referenced column`,
  key: (v) => `write column${valueOf(v)}: the referenced column`,
  version: () => 'write major: the major version of the referenced contract, e.g. major: 1',
};

const ON_VIOLATION: Readonly<Record<string, Rewrite>> = {
  tolerance: (v) => `write ${tolerance(v)}`,
  row_threshold: (v) => `write ${tolerance(v)}`,
  max_invalid_fraction: (v) => `write row_tolerance${valueOf(v)}`,
  max_invalid_percent: (v) => `write row_tolerance${typeof scalar(v) === 'number' ? `: ${Number((Number(scalar(v)) / 100).toPrecision(12))}` : ''} (a fraction: 0.02 is 2%)`,
  max_invalid: (v) => `write max_invalid_rows${valueOf(v)}`,
};

/** A rule of another level's `severity` (`grain` in a column's) says where it goes. */
const SEVERITY: Readonly<Record<string, Rewrite>> = {
  min_length: () => 'write length: min_length and max_length are one rule',
  max_length: () => 'write length: min_length and max_length are one rule',
  nullable: () => 'write required',
  not_null: () => 'write required',
  accepted_values: () => 'write enum',
  max_lag_hours: () => 'write freshness: the rule max_lag_hours and warn_lag_hours configure',
  warn_lag_hours: () => 'write freshness: the rule max_lag_hours and warn_lag_hours configure',
  ...Object.fromEntries(COLUMN_SEVERITY_RULES.map((rule) => [rule, () => `${rule} is a rule of a column: write it in the column's severity`])),
  ...Object.fromEntries(SCHEMA_SEVERITY_RULES.map((rule) => [rule, () => `${rule} is a rule of the schema: write it under schema.severity`])),
  ...Object.fromEntries(SLA_SEVERITY_RULES.map((rule) => [rule, () => `${rule} is a rule of the sla: write it under sla.severity`])),
};

/** The hint for a key at one level of a native contract. */
export function foreignKeyHints(level: 'top' | 'schema' | 'column' | 'sla' | 'references' | 'on_violation' | 'severity'): ForeignKeyHint {
  const table = { top: TOP, schema: SCHEMA, column: COLUMN, sla: SLA, references: REFERENCES, on_violation: ON_VIOLATION, severity: SEVERITY }[level];
  return (key, value) => (Object.hasOwn(table, key) ? table[key]?.(value) : undefined);
}

export const foreignKeyHint = foreignKeyHints('top');

function scalar(node: Node | null): unknown {
  return node && isScalar(node) ? node.value : undefined;
}

function valueOf(node: Node | null, rewrite: (value: string) => string = (value) => value): string {
  const value = scalar(node);
  if (typeof value === 'string') return `: ${JSON.stringify(rewrite(value))}`;
  return typeof value === 'number' || typeof value === 'boolean' ? `: ${JSON.stringify(value)}` : '';
}

/** dbt's `ref('customers')` (or `source('raw', 'customers')`) names the contract `customers`. */
function refName(text: string): string {
  const match = /^\s*(?:ref|source)\((?:\s*['"][^'"]*['"]\s*,)?\s*['"]([^'"]+)['"]\s*\)\s*$/.exec(text);
  return match?.[1] ?? text;
}

/** `{ to: ref('customers'), field: id }` or `"customers.id"` → `: { contract: customers, column: id }`. */
function reference(node: Node | null): string {
  const value = scalar(node);
  const dotted = typeof value === 'string' ? /^([^.\s]+)\.([^.\s]+)$/.exec(value) : null;
  const contract = dotted?.[1] ?? field(node, ['to', 'table', 'contract', 'references'], refName) ?? '<contract>';
  const column = dotted?.[2] ?? field(node, ['field', 'column', 'key'], (v) => v) ?? '<column>';
  return `: { contract: ${contract}, column: ${column} }`;
}

function field(node: Node | null, keys: readonly string[], rewrite: (value: string) => string): string | undefined {
  if (!node || !isMap(node)) return undefined;
  const pair = node.items.find((p) => isScalar(p.key) && keys.includes(String(p.key.value)) && isScalar(p.value) && typeof p.value.value === 'string');
  return pair ? rewrite(String((pair.value as { value: unknown }).value)) : undefined;
}

/** `0.02` or `"2%"` → `row_tolerance: 0.02`; a whole number of 1 or more → `max_invalid_rows: n`. */
function tolerance(node: Node | null): string {
  const value = scalar(node);
  const percent = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value) : null;
  if (percent) return `row_tolerance: ${Number((Number(percent[1]) / 100).toPrecision(12))}`;
  if (typeof value === 'number' && value >= 0 && value < 1) return `row_tolerance: ${value}`;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return `max_invalid_rows: ${value}`;
  return 'row_tolerance: <a fraction, e.g. 0.02> or max_invalid_rows: <rows>';
}

/** dbt's `warn_after: { count: 12, period: hour }` → `: 12`. */
function hours(node: Node | null): string {
  if (!node || !isMap(node)) return '';
  const get = (key: string) => node.items.find((p) => isScalar(p.key) && p.key.value === key)?.value;
  const count = scalar((get('count') ?? null) as Node | null);
  const period = scalar((get('period') ?? null) as Node | null);
  const perHour = { minute: 1 / 60, hour: 1, day: 24 }[String(period)];
  return typeof count === 'number' && perHour !== undefined ? `: ${Number((count * perHour).toFixed(4))}` : '';
}

function list(node: Node | null): string {
  const text = node?.toString?.();
  return text && text.length <= 80 && !text.includes('\n') ? `: ${text}` : ': [...]';
}

/** `range: { min: 0, max: 10 }` → `min: 0, max: 10`. */
function bounds(node: Node | null): string {
  if (!node || !isMap(node)) return '';
  const parts = node.items
    .filter((pair) => isScalar(pair.key) && ['min', 'max'].includes(String(pair.key.value)) && isScalar(pair.value))
    .map((pair) => `${String((pair.key as { value: unknown }).value)}: ${JSON.stringify((pair.value as { value: unknown }).value)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function minutes(node: Node | null, key: string): string {
  const value = scalar(node);
  return typeof value === 'number' ? ` (${value} minutes is ${key}: ${Number((value / 60).toFixed(4))})` : '';
}
