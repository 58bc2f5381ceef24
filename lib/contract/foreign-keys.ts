import { isMap, isScalar, type Node } from 'yaml';
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
  freshness_error_after_minutes: (v) => `write sla: { max_lag_hours: <hours>, freshness_column: <timestamp column> }${minutes(v)}`,
  freshness_warn_after_minutes: () => 'the gate has no warning threshold for freshness: write sla.max_lag_hours for the limit that fails a drop',
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
  error_after: () => 'write max_lag_hours: the lag in hours that fails a drop',
  warn_after: () => 'the gate has no warning threshold for freshness: write max_lag_hours for the limit that fails a drop',
};

/** The hint for a key at one level of a native contract. */
export function foreignKeyHints(level: 'top' | 'schema' | 'column' | 'sla'): ForeignKeyHint {
  const table = { top: TOP, schema: SCHEMA, column: COLUMN, sla: SLA }[level];
  return (key, value) => (Object.hasOwn(table, key) ? table[key]?.(value) : undefined);
}

export const foreignKeyHint = foreignKeyHints('top');

function scalar(node: Node | null): unknown {
  return node && isScalar(node) ? node.value : undefined;
}

function valueOf(node: Node | null): string {
  const value = scalar(node);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? `: ${JSON.stringify(value)}` : '';
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

function minutes(node: Node | null): string {
  const value = scalar(node);
  return typeof value === 'number' ? ` (${value} minutes is max_lag_hours: ${Number((value / 60).toFixed(4))})` : '';
}
