import type { SchemaElement } from 'hyparquet';
import type { ColumnType } from '../contract/column-type.js';
import type { TypedColumn } from './table-file.js';

type StoredType = TypedColumn['type'];

/**
 * Maps a top-level Parquet leaf to the contract type its values are. The mapping follows the
 * Parquet logical-type spec, falling back to legacy converted types for older writers.
 */
export function storedType(element: SchemaElement): StoredType {
  if (element.repetition_type === 'REPEATED') return unsupported('a repeated field');
  const logical = element.logical_type;
  const converted = element.converted_type;
  if (logical?.type === 'DECIMAL') return { kind: 'decimal', precision: logical.precision, scale: logical.scale };
  if (converted === 'DECIMAL') return { kind: 'decimal', precision: element.precision ?? 38, scale: element.scale ?? 0 };
  if (logical?.type === 'TIMESTAMP') return { kind: logical.isAdjustedToUTC ? 'timestamp' : 'timestamp_ntz' };
  // Legacy TIMESTAMP_* converted types are defined as UTC-adjusted instants.
  if (converted === 'TIMESTAMP_MILLIS' || converted === 'TIMESTAMP_MICROS') return { kind: 'timestamp' };
  if (logical?.type === 'DATE' || converted === 'DATE') return { kind: 'date' };
  // hyparquet decodes these to a canonical string and a number, which is what a contract means.
  if (logical?.type === 'UUID') return { kind: 'string' };
  if (logical?.type === 'FLOAT16') return { kind: 'float32' };
  if (logical && ['TIME', 'INTERVAL', 'VARIANT', 'GEOMETRY', 'GEOGRAPHY', 'BSON', 'NULL'].includes(logical.type)) {
    return unsupported(`logical type ${logical.type}`);
  }
  if (converted && ['TIME_MILLIS', 'TIME_MICROS', 'INTERVAL', 'BSON'].includes(converted)) return unsupported(`converted type ${converted}`);
  return physicalType(element);
}

function physicalType(element: SchemaElement): StoredType {
  switch (element.type) {
    case 'BOOLEAN': return { kind: 'boolean' };
    case 'INT32': return isUnsigned32(element) ? { kind: 'int64' } : { kind: 'int32' };
    case 'INT64': return isUnsigned64(element) ? unsupported('unsigned 64-bit integers') : { kind: 'int64' };
    case 'INT96': return { kind: 'timestamp' };
    case 'FLOAT': return { kind: 'float32' };
    case 'DOUBLE': return { kind: 'float64' };
    case 'BYTE_ARRAY': return isText(element) ? { kind: 'string' } : { kind: 'binary' };
    case 'FIXED_LEN_BYTE_ARRAY': return { kind: 'binary' };
    default: return unsupported(`physical type ${element.type ?? 'none'}`);
  }
}

function isText(element: SchemaElement): boolean {
  const logical = element.logical_type?.type;
  return logical === 'STRING' || logical === 'ENUM' || logical === 'JSON'
    || element.converted_type === 'UTF8' || element.converted_type === 'ENUM' || element.converted_type === 'JSON';
}

function isUnsigned32(element: SchemaElement): boolean {
  const logical = element.logical_type;
  return element.converted_type === 'UINT_32' || (logical?.type === 'INTEGER' && logical.bitWidth === 32 && !logical.isSigned);
}

function isUnsigned64(element: SchemaElement): boolean {
  const logical = element.logical_type;
  return element.converted_type === 'UINT_64' || (logical?.type === 'INTEGER' && logical.bitWidth === 64 && !logical.isSigned);
}

function unsupported(detail: string): StoredType {
  return { kind: 'unsupported', detail };
}

/** How the file describes a column, for messages: `INT64 TIMESTAMP(MICROS, UTC)`. */
export function describeElement(element: SchemaElement, childCount: number): string {
  if (childCount > 0) return `a nested group (${element.logical_type?.type ?? element.converted_type ?? 'STRUCT'})`;
  const logical = element.logical_type;
  let annotation = '';
  if (logical?.type === 'TIMESTAMP') annotation = ` TIMESTAMP(${logical.unit}, ${logical.isAdjustedToUTC ? 'UTC' : 'local'})`;
  else if (logical?.type === 'DECIMAL') annotation = ` DECIMAL(${logical.precision},${logical.scale})`;
  else if (logical?.type === 'INTEGER') annotation = ` INT(${logical.bitWidth}, ${logical.isSigned ? 'signed' : 'unsigned'})`;
  else if (logical) annotation = ` ${logical.type}`;
  else if (element.converted_type === 'DECIMAL') annotation = ` DECIMAL(${element.precision},${element.scale})`;
  else if (element.converted_type) annotation = ` ${element.converted_type}`;
  return `${element.type ?? 'GROUP'}${annotation}`;
}

/**
 * True when every value of the stored type can be read as the contract type without loss:
 * narrower integers widen, floats widen, decimals widen when neither integer digits nor scale
 * shrink, and strings are bytes.
 */
export function satisfies(contract: ColumnType, stored: ColumnType): boolean {
  switch (contract.kind) {
    case 'int64': return stored.kind === 'int64' || stored.kind === 'int32';
    case 'float64': return stored.kind === 'float64' || stored.kind === 'float32' || stored.kind === 'int32';
    case 'binary': return stored.kind === 'binary' || stored.kind === 'string';
    case 'decimal': return decimalFits(contract, stored);
    default: return contract.kind === stored.kind;
  }
}

function decimalFits(contract: { precision: number; scale: number }, stored: ColumnType): boolean {
  const integerDigits = contract.precision - contract.scale;
  if (stored.kind === 'int32') return integerDigits >= 10;
  if (stored.kind === 'int64') return integerDigits >= 19;
  if (stored.kind !== 'decimal') return false;
  return stored.scale <= contract.scale && stored.precision - stored.scale <= integerDigits;
}
