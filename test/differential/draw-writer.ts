import type { DataFormat } from '../../lib/contract/model.js';
import { PARQUET_WRITERS, type LogicalTable } from '../writers/index.js';
import { drawDuckdbParquet, drawDuckdbText, type NamedWriter } from './duckdb-writers.js';
import type { Random } from './random-tools.js';

/**
 * The writer for a seed: text formats from DuckDB's COPY; Parquet from the writer matrix, or a
 * quarter of the time DuckDB with seeded knobs, since the matrix fixes each variant's settings.
 */
export function drawWriter(format: DataFormat, r: Random, tables: readonly LogicalTable[] = []): NamedWriter {
  if (format !== 'parquet') return drawDuckdbText(format, r);
  // The matrix writers take int64 within ±2^53, decimals as doubles, whole milliseconds: exact edge values go through DuckDB.
  const edges = tables.some((t) => t.columns.some((c) => c.values.some((v) => typeof v === 'bigint')));
  if (edges) return drawDuckdbParquet(r, true);
  return r.chance(0.25) ? drawDuckdbParquet(r) : r.pick(PARQUET_WRITERS);
}
