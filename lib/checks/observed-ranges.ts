import type { ColumnSpec } from '../contract/model.js';
import { isTemporalType, type ColumnType } from '../contract/column-type.js';
import { exactBound } from '../contract/exact-bounds.js';
import { compareOrdered, decimalFromText, ExactValue, type Ordered } from '../contract/exact-value.js';
import { formatBound } from '../contract/temporal.js';
import type { ObservedRange } from '../report/report.js';
import type { ChunkStatistics } from '../formats/table-file.js';
import type { CheckPlan } from './check-plan.js';

/** A value of a ranged column as the checks compare it: a number, a bigint (Parquet INT64, long JSON integers), an ExactValue. */
export type { Ordered } from '../contract/exact-value.js';

/**
 * The least and greatest value seen of one column. Starts as Infinity/-Infinity, so taking a
 * value is two comparisons and a NaN, which compares false, is never taken; empty while
 * `least > greatest`. Bigints are kept as they are: mixed comparisons are exact in JavaScript.
 */
export interface ValueSpan {
  least: Ordered;
  greatest: Ordered;
}

/** A span as a slice result carries it: String of each value, which JSON (the fan-out's records) keeps, ±Infinity included. */
export interface SpanRecord {
  readonly column: string;
  readonly min: string;
  readonly max: string;
}

/** The columns `observed` reports: those with `min`, `max` or `not_in_future`. */
export function hasRange(spec: ColumnSpec): boolean {
  return spec.min !== undefined || spec.max !== undefined || spec.notInFuture;
}

export function emptySpans(plan: CheckPlan): Map<string, ValueSpan> {
  return new Map(plan.columns.filter((c) => hasRange(c.spec)).map((c) => [c.spec.name, { least: Infinity, greatest: -Infinity }]));
}

/** Widens `span` to hold [least, greatest]. */
export function widenSpan(span: ValueSpan, least: Ordered, greatest: Ordered): void {
  if (below(least, span.least)) span.least = least;
  if (below(span.greatest, greatest)) span.greatest = greatest;
}

/** a < b, exactly: natively unless an ExactValue is involved (whose `<` would compare doubles). */
export function below(a: Ordered, b: Ordered): boolean {
  return typeof a !== 'object' && typeof b !== 'object' ? a < b : compareOrdered(a, b) < 0;
}

/**
 * A row group's chunk proven by its footer, so not decoded: its statistics' min and max are
 * values it holds. A max the writer marks inexact is a bound, not a value, and is left out; with
 * one side only, that value is the one known to be there.
 */
export function statisticsSpan(stats: ChunkStatistics | undefined): ValueSpan | undefined {
  const least = ordered(stats?.min);
  const greatest = stats?.maxExact ? ordered(stats.max) : undefined;
  if (least === undefined && greatest === undefined) return undefined;
  return { least: least ?? greatest!, greatest: greatest ?? least! };
}

/**
 * A chunk proven by its dictionary: the entries' least and greatest (NaN left out). A writer
 * puts in the dictionary the values it wrote, so these are the chunk's; a dictionary holding an
 * entry no row uses would widen the span by it, which no writer we know of produces.
 */
export function valuesSpan(values: readonly unknown[]): ValueSpan {
  const span: ValueSpan = { least: Infinity, greatest: -Infinity };
  for (const value of values) {
    const v = ordered(value);
    if (v !== undefined) widenSpan(span, v, v);
  }
  return span;
}

export function spanRecords(spans: ReadonlyMap<string, ValueSpan>): SpanRecord[] {
  return [...spans].filter(([, span]) => !below(span.greatest, span.least)).map(([column, span]) => ({ column, min: String(span.least), max: String(span.greatest) }));
}

/**
 * Reads a SpanRecord value back: digits as an exact bigint (an INT64 past 2^53 stays exact), a
 * number as the number it printed as, and the decimal text of an ExactValue as that value.
 */
export function recordValue(text: string): Ordered {
  if (/^-?\d+$/.test(text)) return BigInt(text);
  const number = Number(text);
  return String(number) === text ? number : (decimalFromText(text) ?? number);
}

/** `Report.observed`: one entry per ranged column in contract order, or undefined when the contract has none. */
export function observedRanges(plan: CheckPlan, spans: ReadonlyMap<string, ValueSpan>): ObservedRange[] | undefined {
  const ranged = plan.columns.filter((c) => hasRange(c.spec));
  if (ranged.length === 0) return undefined;
  return ranged.map(({ spec }) => {
    const span = spans.get(spec.name);
    const seen = span !== undefined && !below(span.greatest, span.least);
    // not_in_future bounds the values by the check time, and with a max too, by the smaller.
    const [min, max] = [exactBound(spec, 'min'), exactBound(spec, 'max')];
    const allowedMax = spec.notInFuture && (max === undefined || below(plan.judgedAt.at, max)) ? plan.judgedAt.at : max;
    return {
      column: spec.name,
      min: seen ? formatValue(span.least, spec.type) : null,
      max: seen ? formatValue(span.greatest, spec.type) : null,
      ...(min === undefined ? {} : { allowed_min: formatBound(min, spec.type) }),
      ...(allowedMax === undefined ? {} : { allowed_max: formatBound(allowedMax, spec.type) }),
    };
  });
}

/** As the contract writes bounds, every digit: a bigint or an ExactValue of a number column, a time to the nanosecond. */
function formatValue(value: Ordered, type: ColumnType): string {
  return typeof value === 'bigint' && !isTemporalType(type) ? String(value) : formatBound(typeof value === 'bigint' ? Number(value) : value, type);
}

function ordered(value: unknown): Ordered | undefined {
  return (typeof value === 'number' && value === value) || typeof value === 'bigint' || value instanceof ExactValue ? value : undefined;
}
