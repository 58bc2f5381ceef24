import { formatColumnType, type ColumnType } from '../contract/column-type.js';
import { change, loosenedClass, type CompatMode, type RawChange } from './contract-diff.js';

/** Simple-kind widenings every value of the old type survives exactly. */
const WIDENINGS: ReadonlySet<string> = new Set(['int32>int64', 'float32>float64', 'int32>float64']);

export function sameType(a: ColumnType, b: ColumnType): boolean {
  return formatColumnType(a) === formatColumnType(b);
}

/**
 * Only numeric widenings count: string to binary, say, reads the same bytes but hands a reader a
 * different type, so it is a type change like any other.
 */
export function isWidening(from: ColumnType, to: ColumnType): boolean {
  if (from.kind === 'decimal' && to.kind === 'decimal') return to.scale === from.scale && to.precision > from.precision;
  return WIDENINGS.has(`${from.kind}>${to.kind}`);
}

/** The type change of a column, if any; a widening is classed like any loosening. */
export function typeChange(column: string, from: ColumnType, to: ColumnType, mode: CompatMode): RawChange | undefined {
  if (sameType(from, to)) return undefined;
  const text = `"${column}" changed type from ${formatColumnType(from)} to ${formatColumnType(to)}`;
  if (isWidening(from, to)) {
    const why = loosenedClass(mode) === 'breaking' ? `old readers (compat.mode ${mode}) cannot hold the wider values` : 'every old value still fits';
    return change('type_widened', column, loosenedClass(mode), `${text}: a widening, ${why}`);
  }
  return change('type_changed', column, 'breaking', `${text}: readers and stored data of the old type no longer match`);
}
