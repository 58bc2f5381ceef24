/**
 * The smallest and largest value seen of an ordered column: numbers, or bigint for int64 past
 * 2^53 (Parquet decodes every INT64 as bigint). NaN and the infinities are counted apart: they
 * satisfy no bound, so a column that holds one gets no `min`/`max`.
 */
export class ValueRange {
  min: number | bigint | undefined;
  max: number | bigint | undefined;
  nonFinite = 0;

  add(value: number | bigint): void {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      this.nonFinite++;
      return;
    }
    if (this.min === undefined || value < this.min) this.min = value;
    if (this.max === undefined || value > this.max) this.max = value;
  }

  merge(other: ValueRange): void {
    if (other.min !== undefined) this.add(other.min);
    if (other.max !== undefined) this.add(other.max);
    this.nonFinite += other.nonFinite;
  }
}

/** The value as a plain number when that is exact; undefined for a bigint past 2^53. */
export function exactNumber(value: number | bigint | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
}
