import type { ColumnType } from './column-type.js';
import { compareOrdered, decimalFromText, ExactValue, type Ordered } from './exact-value.js';
import type { ColumnSpec } from './model.js';

/** A bound as the loader reads it: the nearest double, and the bound itself. */
export interface ReadBound {
  readonly value: number;
  readonly exact: number | ExactValue;
}

/** A column's `min` or `max` exactly: ColumnSpec.exactMin/exactMax where set, the double otherwise. */
export function exactBound(spec: Pick<ColumnSpec, 'min' | 'max' | 'exactMin' | 'exactMax'>, side: 'min' | 'max'): Ordered | undefined {
  const text = side === 'min' ? spec.exactMin : spec.exactMax;
  const exact = text === undefined ? undefined : decimalFromText(text);
  return exact ?? (side === 'min' ? spec.min : spec.max);
}

const INT_RANGES = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
} as const;

/** The least and greatest value a column type holds, where it has them (integers, decimals). */
function typeRange(type: ColumnType): readonly [Ordered, Ordered] | undefined {
  if (type.kind === 'int32' || type.kind === 'int64') return INT_RANGES[type.kind];
  if (type.kind !== 'decimal') return undefined;
  const top = `${'9'.repeat(type.precision - type.scale)}${type.scale > 0 ? `.${'9'.repeat(type.scale)}` : ''}`;
  const greatest = decimalFromText(top.startsWith('.') ? `0${top}` : top)!;
  const least = decimalFromText(`-${top.startsWith('.') ? `0${top}` : top}`)!;
  return [least, greatest];
}

/**
 * A bound beyond what the column type can hold. One that lets every value of the type through
 * (a `max` above the greatest) never binds: a warning, as the contract likely meant a different
 * type or bound. One that no value can meet (a `min` above the greatest) would fail every row:
 * an error. A bound with more fractional digits than a decimal's scale is compared exactly.
 */
export function boundRangeProblem(bound: Ordered, type: ColumnType, side: 'min' | 'max'): { message: string; severity: 'error' | 'warning' } | undefined {
  const range = typeRange(type);
  if (!range) return undefined;
  const [least, greatest] = range;
  const above = compareOrdered(bound, greatest) > 0;
  const below = compareOrdered(bound, least) < 0;
  if (!above && !below) return undefined;
  const holds = `${typeName(type)} holds ${String(least)} to ${String(greatest)}`;
  const excludesAll = (side === 'min' && above) || (side === 'max' && below);
  if (excludesAll) return { severity: 'error', message: `${side} ${String(bound)} is outside what ${holds}: no value could meet it; fix the bound or widen the type` };
  return { severity: 'warning', message: `${side} ${String(bound)} is outside what ${holds}, so it never fails a value; fix the bound or the type` };
}

function typeName(type: ColumnType): string {
  return type.kind === 'decimal' ? `decimal(${type.precision},${type.scale})` : type.kind;
}
