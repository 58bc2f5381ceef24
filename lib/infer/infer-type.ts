import { formatColumnType, type ColumnType } from '../contract/column-type.js';
import { satisfies } from '../formats/parquet-types.js';
import type { ColumnStats } from './column-stats.js';
import type { Candidate } from './type-candidates.js';
import type { ValueRange } from './value-range.js';

/** A column's values in one partition, read as the chosen type. */
export interface TypedPartition {
  readonly rows: number;
  readonly nulls: number;
  readonly nonNull: number;
  readonly range: ValueRange;
}

export type TypeDecision =
  | { readonly type: ColumnType; readonly partitions: readonly TypedPartition[]; readonly note?: string }
  | { readonly leftOut: string };

/** The contract type for a column, from the file schemas (Parquet) or from every value (CSV, JSON). */
export function decideType(stats: ColumnStats): TypeDecision {
  return stats.candidates ? fromValues(stats) : fromSchema(stats);
}

/**
 * Parquet says the type. Files that disagree get the one type every file satisfies (int32 and
 * int64 files: int64), as the engine's type check reads them, or the column is left out.
 */
function fromSchema(stats: ColumnStats): TypeDecision {
  const unsupported = stats.stored.find((s) => s.type.kind === 'unsupported');
  if (unsupported && unsupported.type.kind === 'unsupported') return { leftOut: `${unsupported.physical} (${unsupported.type.detail}) has no contract type` };
  const types = stats.stored.map((s) => s.type as ColumnType);
  const fits = [...types, widestDecimal(types)].find((t) => t && types.every((stored) => satisfies(t, stored)));
  if (!fits) return { leftOut: `the files store it as ${stats.stored.map((s) => s.physical).join(' and ')}, which no one contract type reads` };
  const partitions = stats.partitions.map((p) => ({ rows: p.rows, nulls: p.nulls, nonNull: p.rows - p.nulls, range: p.range }));
  return { type: fits, partitions };
}

function widestDecimal(types: readonly ColumnType[]): ColumnType | undefined {
  const decimals = types.filter((t): t is Extract<ColumnType, { kind: 'decimal' }> => t.kind === 'decimal');
  if (decimals.length < 2) return undefined;
  const scale = Math.max(...decimals.map((d) => d.scale));
  const precision = Math.max(...decimals.map((d) => d.precision - d.scale)) + scale;
  return precision <= 38 ? { kind: 'decimal', precision, scale } : undefined;
}

/**
 * CSV and JSON: the first candidate, in order of preference, that read every value and saw at
 * least one. A column with no value at all is declared a string, said to be a guess.
 */
function fromValues(stats: ColumnStats): TypeDecision {
  const survivors = stats.candidates!.survivors();
  if (survivors.length === 0) return { leftOut: 'its values fit no one contract type (e.g. numbers in some rows, text in others)' };
  const decimal = stats.candidates!.decimalType();
  const usable = survivors.filter((c) => c.kind !== 'decimal' || decimal !== undefined);
  const chosen = usable.find((c) => c.partitions.some((p) => p.nonNull > 0));
  if (!chosen) {
    const fallback = usable.find((c) => c.kind === 'string') ?? usable[0];
    if (!fallback) return { leftOut: 'its values fit no one contract type' };
    return { ...typed(stats, fallback, { kind: fallback.kind as Exclude<ColumnType['kind'], 'decimal'> }), note: 'no value in any sample: the type is a guess' };
  }
  const type: ColumnType = chosen.kind === 'decimal' ? decimal! : { kind: chosen.kind };
  const note = chosen.kind === 'decimal' ? `every value has ${formatScale(type)} after the point: ${formatColumnType(type)}, precision 18 or more for room` : undefined;
  return { ...typed(stats, chosen, type), ...(note ? { note } : {}) };
}

function typed(stats: ColumnStats, candidate: Candidate, type: ColumnType): { type: ColumnType; partitions: TypedPartition[] } {
  const partitions = candidate.partitions.map((p, i) => ({ rows: stats.partitions[i]?.rows ?? 0, nulls: p.nulls, nonNull: p.nonNull, range: p.range }));
  return { type, partitions };
}

function formatScale(type: ColumnType): string {
  const scale = type.kind === 'decimal' ? type.scale : 0;
  return `${scale} digit${scale === 1 ? '' : 's'}`;
}
