import { isTemporalType } from '../contract/column-type.js';
import { exactBound } from '../contract/exact-bounds.js';
import type { ColumnSpec } from '../contract/model.js';
import { formatBound } from '../contract/temporal.js';
import { NumberText } from './json-text.js';

/**
 * Numbers as exports print them. The contract holds bounds as doubles, and the engine compares
 * values with exactly those doubles; past 2^53 every double is an integer, and JavaScript's
 * shortest form of it (9223372036854776000 for 2^63) names a different integer than the one
 * compared with. Such a bound is printed as its exact integer value instead, which any reader
 * parses back to the same double and a reader with exact integers (Python, Java) takes as it is.
 */
export function exactNumber(value: number): number | bigint {
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value) : value;
}

export function exactText(value: number): string {
  return String(exactNumber(value));
}

export const INT32_RANGE = { min: -(2n ** 31n), max: 2n ** 31n - 1n };
export const INT64_RANGE = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/**
 * A bound of an integer column, within the column's range: the loader reads `max: 9223372036854775807`
 * as 2^63, which no int64 reaches, so the widest bound an int64 column can have is written instead.
 */
export function integerBound(value: number, range: { min: bigint; max: bigint }): number | bigint {
  if (!Number.isInteger(value)) return value;
  const exact = BigInt(value);
  const clamped = exact < range.min ? range.min : exact > range.max ? range.max : exact;
  return Number.isSafeInteger(Number(clamped)) && BigInt(Number(clamped)) === clamped ? Number(clamped) : clamped;
}

/**
 * A column written as YAML with its bounds exact: YAML, like JSON, prints a double past 2^53 in
 * its shortest form. An int32 or int64 column's bound is its nearest value within the type.
 */
export function withExactBounds<T extends { type: string; min?: unknown; max?: unknown }>(column: T): T {
  const range = column.type === 'int64' ? INT64_RANGE : column.type === 'int32' ? INT32_RANGE : undefined;
  const exact = (value: unknown) => (typeof value !== 'number' ? value : range ? integerBound(value, range) : exactNumber(value));
  return { ...column, ...(column.min === undefined ? {} : { min: exact(column.min) }), ...(column.max === undefined ? {} : { max: exact(column.max) }) };
}

/**
 * A number bound's exact digits where the contract wrote more than its double holds
 * (ColumnSpec.exactMin/exactMax, which the gate compares with): an integer as a bigint within
 * `range`, a decimal as its digits; undefined where the double is the bound.
 */
export function exactDigits(column: { exactMin?: string; exactMax?: string }, side: 'min' | 'max', range?: { min: bigint; max: bigint }): bigint | NumberText | undefined {
  const text = side === 'min' ? column.exactMin : column.exactMax;
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text)) return new NumberText(text);
  const exact = BigInt(text);
  return range === undefined ? exact : exact < range.min ? range.min : exact > range.max ? range.max : exact;
}

/**
 * A date or timestamp bound as the contract wrote it, to its last fraction digit (a µs or ns bound
 * printed to the millisecond would move it); wall-clock time without the `Z` it never had.
 * Undefined for other types or no bound.
 */
export function temporalBoundText(column: ColumnSpec, side: 'min' | 'max'): string | undefined {
  const bound = exactBound(column, side);
  if (bound === undefined || !isTemporalType(column.type)) return undefined;
  const text = formatBound(bound, column.type).replace(/\.000Z$/, 'Z');
  return column.type.kind === 'timestamp_ntz' ? text.replace(/Z$/, '') : text;
}
