import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PARTITION } from './orders-data.js';
import { sourceShape, type Shape } from './shape-list.js';

/**
 * Where a shape's generated partition is cached: `bench/data/shapes/<id>-<tag>/dt=2026-11-29`
 * (git-ignored). The tag hashes everything the bytes depend on (rows, how it is built, the
 * table generator's version, the source shape's tag), so a change to any of them writes a new
 * directory instead of reusing stale data; directories no shape names any more are removed.
 */
export const SHAPES_ROOT = join('bench', 'data', 'shapes');
/** Bump when the writing itself changes (file naming, writer options every shape shares). */
const LAYOUT_VERSION = 'layout-v2';

export function dataTag(shape: Shape): string {
  const { build } = shape;
  const described = {
    layout: LAYOUT_VERSION, rows: shape.rows, format: shape.format, kind: build.kind,
    ...('table' in build ? { table: build.table.version, rowGroup: build.rowGroup } : {}),
    ...(build.kind === 'hyparquet' ? { files: build.files, statistics: build.statistics } : {}),
    ...(build.kind === 'duckdb-parquet' ? { options: build.options } : {}),
    source: sourceShape(shape) ? dataTag(sourceShape(shape)!) : null,
  };
  return createHash('sha256').update(JSON.stringify(described)).digest('hex').slice(0, 10);
}

export function shapeDirName(shape: Shape): string {
  return `${shape.id}-${dataTag(shape)}`;
}

/** The partition directory the engines are given. */
export function partitionDir(shape: Shape): string {
  return join(SHAPES_ROOT, shapeDirName(shape), PARTITION);
}

export function fileName(index: number, format: 'parquet' | 'csv'): string {
  return `part-${String(index).padStart(4, '0')}.${format}`;
}

/** Rows [first, end) of the whole partition that file `index` of `files` holds. */
export function fileRows(rows: number, files: number, index: number): { first: number; end: number } {
  return { first: Math.floor((index * rows) / files), end: Math.floor(((index + 1) * rows) / files) };
}
