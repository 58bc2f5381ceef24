import { availableParallelism } from 'node:os';
import { DEFAULT_SHAPES, SHAPES, shapeById, type Shape } from './shape-list.js';

/**
 * The bench's environment knobs:
 *   BENCH_SHAPES    comma list of shape ids, or `all` (default: the default list; see shape-list.ts or the printed list)
 *   BENCH_CORES     comma list of core counts, a table each (2,1): each engine's process pinned to
 *                   cores 0..N-1 (taskset) and DuckDB told `SET threads = N`; 1 is what a 1,769 MB Lambda gets
 *   BENCH_RUNS      runs per engine and shape, medians reported (3)
 *   BENCH_TIMEOUT_S one engine process is killed after this long and reported TIMEOUT (300)
 *   BENCH_WORKERS   passed to `validate --workers` in every table (unset: the CLI's default, which sees the pinned cores)
 *   BENCH_PLAIN=1   also time a plain hyparquet decode of the orders Parquet shapes
 *   BENCH_S3=0, BENCH_BUNDLE=0 skip the S3-path and the Lambda bundle sections
 *   BENCH_INIT_RUNS imports of the bundle timed (7)
 */
export interface Knobs {
  readonly shapes: readonly Shape[];
  /** One table per entry, both engines pinned to that many cores. */
  readonly cores: readonly number[];
  readonly runs: number;
  readonly timeoutMs: number;
  readonly workers: string | undefined;
  readonly plain: boolean;
  readonly s3: boolean;
  readonly bundle: boolean;
  readonly initRuns: number;
}

export function readKnobs(env: NodeJS.ProcessEnv = process.env): Knobs {
  return {
    shapes: selectShapes(env.BENCH_SHAPES),
    cores: selectCores(env.BENCH_CORES),
    runs: positive(env, 'BENCH_RUNS', 3),
    timeoutMs: positive(env, 'BENCH_TIMEOUT_S', 300) * 1000,
    workers: env.BENCH_WORKERS,
    plain: env.BENCH_PLAIN === '1',
    s3: env.BENCH_S3 !== '0',
    bundle: env.BENCH_BUNDLE !== '0',
    initRuns: positive(env, 'BENCH_INIT_RUNS', 7),
  };
}

/** The shapes named (`all`: every shape), in the bench's own order; unknown names are an error listing the known ones. */
export function selectShapes(list: string | undefined): Shape[] {
  if (list === undefined || list.trim() === '') return [...DEFAULT_SHAPES];
  if (list.trim() === 'all') return [...SHAPES];
  const wanted = new Set(list.split(',').map((id) => shapeById(id.trim()).id));
  return SHAPES.filter((s) => wanted.has(s.id));
}

/** The tables' core counts, in the order given, each at most the cores this machine has (default 2,1). */
export function selectCores(list: string | undefined, available = availableParallelism()): number[] {
  if (list === undefined || list.trim() === '') return [...new Set([Math.min(2, available), 1])];
  const counts = list.split(',').map((part) => Number(part.trim()));
  const bad = counts.find((n) => !Number.isInteger(n) || n < 1 || n > available);
  if (bad !== undefined || counts.length === 0) throw new Error(`BENCH_CORES must be a comma list of core counts from 1 to ${available} (this machine's), such as 2,1; got "${list}"`);
  return [...new Set(counts)];
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1`);
  return value;
}
