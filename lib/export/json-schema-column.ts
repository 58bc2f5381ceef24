import { formatColumnType, isTemporalType } from '../contract/column-type.js';
import type { ColumnSpec } from '../contract/model.js';
import { describeWithNotes, formatBound, ruleNotes, type NotedRule } from './rule-notes.js';

/** The subset of JSON Schema 2020-12 the export writes. Bounds may be bigints: see json-text.ts. */
export interface JsonSchema {
  $schema?: string;
  $comment?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  format?: string;
  contentEncoding?: string;
  enum?: (string | number | boolean | null)[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number | bigint;
  maximum?: number | bigint;
  default?: string | number | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  not?: JsonSchema;
  'x-contract-gate'?: Record<string, unknown>;
}

type Keywords = Omit<JsonSchema, 'type'>;
type TypedSchema = Keywords & { type: string };

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
/** What the gate reads as a `timestamp_ntz`: `format: date-time` would demand an offset. */
const LOCAL_DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?$';

/**
 * The schema of one column's value. A column that is not required may be absent or null, so
 * null joins its type and, because `enum` is checked on its own, its enum as well.
 */
export function columnSchema(column: ColumnSpec, required: boolean): JsonSchema {
  const base = typeSchema(column);
  const unstated = unstatedRules(column);
  const description = describeWithNotes(column.description, ruleNotes(column, unstated));
  return {
    ...(description === undefined ? {} : { description }),
    ...base,
    type: required ? base.type : [base.type, 'null'],
    ...(base.enum && !required ? { enum: [...base.enum, null] } : {}),
    ...(column.default === undefined ? {} : { default: defaultValue(column, column.default) }),
    'x-contract-gate': contractGateKeys(column, unstated),
  };
}

/** A decimal's default is written in the decimal's own form, a string, so it fits the schema. */
function defaultValue(column: ColumnSpec, value: string | number | boolean): string | number | boolean {
  return column.type.kind === 'decimal' && typeof value === 'number' ? String(value) : value;
}

function typeSchema(column: ColumnSpec): TypedSchema {
  const type = column.type;
  switch (type.kind) {
    case 'string': return { type: 'string', ...stringRules(column) };
    case 'int32': return { type: 'integer', ...bounds(column, INT32) };
    case 'int64': return { type: 'integer', ...bounds(column, INT64) };
    case 'float32':
    case 'float64': return { type: 'number', ...bounds(column) };
    case 'decimal': return { type: 'string', pattern: decimalPattern(type, column.min !== undefined && column.min >= 0) };
    case 'boolean': return { type: 'boolean' };
    case 'date': return { type: 'string', format: 'date' };
    case 'timestamp': return { type: 'string', format: 'date-time' };
    case 'timestamp_ntz': return { type: 'string', pattern: LOCAL_DATE_TIME };
    case 'binary': return { type: 'string', contentEncoding: 'base64' };
  }
}

function stringRules(column: ColumnSpec): Keywords {
  return {
    ...(column.enum ? { enum: [...column.enum] } : {}),
    ...(column.pattern === undefined ? {} : { pattern: column.pattern }),
    ...(column.minLength === undefined ? {} : { minLength: column.minLength }),
    ...(column.maxLength === undefined ? {} : { maxLength: column.maxLength }),
  };
}

/** The contract's bounds, narrowed to what the storage type can hold. */
function bounds(column: ColumnSpec, limits?: { min: number | bigint; max: number | bigint }): Keywords {
  const { min, max } = column;
  const minimum = min !== undefined && (limits === undefined || min > limits.min) ? min : limits?.min;
  const maximum = max !== undefined && (limits === undefined || max < limits.max) ? max : limits?.max;
  return { ...(minimum === undefined ? {} : { minimum }), ...(maximum === undefined ? {} : { maximum }) };
}

/**
 * Decimals are strings of digits. As JSON numbers they are binary floats, and `multipleOf: 0.01`
 * then rejects valid amounts (ajv computes 0.07 / 0.01 = 7.000000000000001); a string keeps the
 * exact digits, as JSON writers of decimals do. Strings cannot be compared, so a bound is only
 * stated as a sign: a minimum of zero or more drops the minus.
 */
export function decimalPattern(type: { precision: number; scale: number }, nonNegative: boolean): string {
  const whole = type.precision - type.scale;
  const integer = whole === 0 ? '0' : `\\d{1,${whole}}`;
  const fraction = type.scale === 0 ? '' : `(\\.\\d{1,${type.scale}})?`;
  return `^${nonNegative ? '' : '-?'}${integer}${fraction}$`;
}

/** Rules JSON Schema cannot state: it compares no dates, no numeric strings, and sees one row. */
function unstatedRules(column: ColumnSpec): NotedRule[] {
  const comparable = !isTemporalType(column.type) && column.type.kind !== 'decimal';
  return comparable ? ['notInFuture', 'unique'] : ['range', 'notInFuture', 'unique'];
}

/** The contract's own terms, for tools that read the schema and want what it could not say. */
function contractGateKeys(column: ColumnSpec, unstated: readonly NotedRule[]): Record<string, unknown> {
  const keys: Record<string, unknown> = { type: formatColumnType(column.type) };
  if (unstated.includes('range')) {
    const text = (value: number) => (column.type.kind === 'decimal' ? value : formatBound(column, value));
    if (column.min !== undefined) keys.minimum = text(column.min);
    if (column.max !== undefined) keys.maximum = text(column.max);
  }
  if (column.notInFuture) keys.not_in_future = true;
  if (column.unique) keys.unique = true;
  return keys;
}
