import type { DataFormat } from '../../lib/contract/model.js';
import { PARQUET_WRITERS } from '../writers/index.js';
import { drawDuckdbParquet, drawDuckdbText, type NamedWriter } from './duckdb-writers.js';
import type { Random } from './random-tools.js';

/**
 * The writer for a seed: text formats from DuckDB's COPY; Parquet from the writer matrix, or a
 * quarter of the time DuckDB with seeded knobs, since the matrix fixes each variant's settings.
 */
export function drawWriter(format: DataFormat, r: Random): NamedWriter {
  if (format !== 'parquet') return drawDuckdbText(format, r);
  return r.chance(0.25) ? drawDuckdbParquet(r) : r.pick(PARQUET_WRITERS);
}
