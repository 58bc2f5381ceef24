import type { SchemaElement, Statistics } from 'hyparquet';
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
  const bound = (value: unknown) => (comparable && (typeof value === 'number' || typeof value === 'bigint') ? value : undefined);
  return {
    nullCount,
    min: bound(stats.min_value),
    max: bound(stats.max_value),
    maxExact: stats.is_max_value_exact !== false,
  };
}
