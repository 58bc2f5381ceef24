import type { SchemaElement, Statistics } from 'hyparquet';
import { ExactValue } from '../contract/exact-value.js';
import { filledDecimals } from './schema-annotations.js';
import type { ChunkStatistics } from './table-file.js';

/**
 * Keeps only the footer statistics that are safe to reason with. The legacy `min`/`max` fields
 * are ignored (old writers ordered some types wrongly); float bounds are dropped because NaN is
 * left out of them; INT96 and byte-array bounds are not numbers and are dropped too.
 */
export function chunkStatistics(stats: Statistics | undefined, element: SchemaElement): ChunkStatistics | undefined {
  if (!stats) return undefined;
  const nullCount = stats.null_count === undefined ? undefined : Number(stats.null_count);
  const comparable = element.type === 'INT32' || element.type === 'INT64' || (element.type === 'FIXED_LEN_BYTE_ARRAY' && element.converted_type === 'DECIMAL');
  const exact = exactStatistic(element);
  const bound = (value: unknown) => (comparable && (typeof value === 'number' || typeof value === 'bigint' || value instanceof ExactValue) && exact(value) ? value : undefined);
  return {
    nullCount,
    min: bound(stats.min_value),
    max: bound(stats.max_value),
    maxExact: stats.is_max_value_exact !== false,
  };
}

/**
 * Whether a footer value is the exact value the checks compare (exact-value.ts). hyparquet reads
 * a decimal statistic as unscaled / 10^scale in doubles: the canonical value while the unscaled
 * integer is below 10^15, another number past it, which is dropped (the chunk is decoded).
 */
function exactStatistic(element: SchemaElement): (value: unknown) => boolean {
  if (element.converted_type !== 'DECIMAL') return () => true;
  if (filledDecimals.has(element)) return () => false;
  const scale = element.scale ?? 0;
  return (value) => typeof value === 'number' && scale <= 22 && Math.abs(value * 10 ** scale) < 1e15 - 1;
}
