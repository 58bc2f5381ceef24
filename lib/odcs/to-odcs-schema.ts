import { formatColumnType, isTemporalType, parseColumnType, type ColumnType } from '../contract/column-type.js';
import type { ColumnSpec, Contract } from '../contract/model.js';
import { exactDigits, exactNumber, INT32_RANGE, INT64_RANGE, integerBound, temporalBoundText } from '../export/exact-number.js';
import type { NumberText } from '../export/json-text.js';
import { CUSTOM_PREFIX } from './custom-properties.js';
import { columnSeverity, odcsSeverity, relationship, rowCountRules } from './to-odcs-rules.js';

type Json = Record<string, unknown>;

/** The dataset as the one ODCS schema object, its grain as the primary key. */
export function schemaObject(contract: Contract): Json {
  const { grain, columns, extraColumns, severity } = contract.schema;
  const rowCount = rowCountRules(contract.sla);
  return {
    name: contract.name,
    logicalType: 'object',
    physicalType: 'table',
    properties: columns.map((column) => property(column, grain.indexOf(column.name))),
    ...(rowCount.length > 0 ? { quality: rowCount } : {}),
    customProperties: [custom('extraColumns', extraColumns), ...(severity ? [custom('severity', { ...severity })] : [])],
  };
}

function property(column: ColumnSpec, keyIndex: number): Json {
  const options = typeOptions(column);
  const quality = column.enum ? [{ metric: 'invalidValues', arguments: { validValues: [...column.enum] }, mustBe: 0, unit: 'rows', ...odcsSeverity(column.severity?.enum) }] : [];
  const foreignKey = column.references && relationship(column.references);
  const severity = columnSeverity(column);
  const extras = [
    ...(column.requiredWhen ? [custom('requiredWhen', { column: column.requiredWhen.column, in: [...column.requiredWhen.in] })] : []),
    ...(column.notInFuture ? [custom('notInFuture', true)] : []),
    ...(column.default !== undefined ? [custom('default', column.default)] : []),
    ...(severity !== undefined ? [custom('severity', severity === 'warn' ? severity : { ...severity })] : []),
    ...(column.references && !foreignKey ? [custom('references', { ...column.references })] : []),
  ];
  return {
    name: column.name,
    logicalType: logicalType(column.type),
    // The native type name is the physical type: exact, and read back as itself (see odcs-type.ts).
    physicalType: parseColumnType(column.typeText) ? column.typeText : formatColumnType(column.type),
    ...(column.description !== undefined ? { description: column.description } : {}),
    ...(column.required ? { required: true } : {}),
    ...(column.unique ? { unique: true } : {}),
    ...(keyIndex >= 0 ? { primaryKey: true, primaryKeyPosition: keyIndex + 1 } : {}),
    ...(Object.keys(options).length > 0 ? { logicalTypeOptions: options } : {}),
    ...(foreignKey ? { relationships: [foreignKey] } : {}),
    ...(quality.length > 0 ? { quality } : {}),
    ...(extras.length > 0 ? { customProperties: extras } : {}),
  };
}

function logicalType(type: ColumnType): string {
  switch (type.kind) {
    case 'int32': case 'int64': return 'integer';
    case 'float32': case 'float64': case 'decimal': return 'number';
    case 'date': return 'date';
    case 'timestamp': case 'timestamp_ntz': return 'timestamp';
    case 'boolean': return 'boolean';
    default: return 'string';
  }
}

/** Only the options ODCS allows for the logical type, so the document validates. */
function typeOptions(column: ColumnSpec): Json {
  const { type } = column;
  const bound = (side: 'min' | 'max') => { const value = column[side]; return value === undefined ? undefined : isTemporalType(type) ? temporalBoundText(column, side) : exactBound(type, value); };
  const width = { int32: 'i32', int64: 'i64', float32: 'f32', float64: 'f64' }[type.kind as string];
  const options: Json = {
    format: width ?? (type.kind === 'binary' ? 'binary' : undefined),
    timezone: type.kind === 'timestamp' ? true : type.kind === 'timestamp_ntz' ? false : undefined,
    minimum: exactBoundDigits(column, 'min') ?? bound('min'),
    maximum: exactBoundDigits(column, 'max') ?? bound('max'),
    pattern: column.pattern,
    minLength: column.minLength,
    maxLength: column.maxLength,
  };
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/**
 * A number past 2^53 as the exact integer compared with (see export/exact-number.ts), an int64's
 * within its range: YAML would print 2^63-1, held as 2^63, as 9223372036854776000.
 */
function exactBound(type: ColumnType, value: number): number | bigint {
  if (type.kind === 'int32') return integerBound(value, INT32_RANGE);
  return type.kind === 'int64' ? integerBound(value, INT64_RANGE) : exactNumber(value);
}

/** A number bound's exact digits where its double is not the bound (exact-number.ts): an integer past 2^53, a decimal past 15 digits. */
function exactBoundDigits(column: ColumnSpec, side: 'min' | 'max'): bigint | NumberText | undefined {
  if (isTemporalType(column.type)) return undefined;
  const range = column.type.kind === 'int32' ? INT32_RANGE : column.type.kind === 'int64' ? INT64_RANGE : undefined;
  return exactDigits(column, side, range);
}

export function custom(key: string, value: unknown): Json {
  return { property: `${CUSTOM_PREFIX}${key}`, value };
}
