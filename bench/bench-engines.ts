import { join } from 'node:path';
import { COLUMNS, NOW } from './orders-data.js';
import type { Measurement } from './measure-process.js';
import { partitionDir } from './shape-data.js';
import type { Shape } from './shape-list.js';
import type { CommonViolation, Verdict } from './violation-set.js';

/**
 * The engines the bench runs over each shape, each as its own process: contract-gate's CLI,
 * DuckDB's SQL checks of the same contract, and (BENCH_PLAIN=1, orders Parquet shapes only) a
 * plain hyparquet decode of the columns, which has no verdict. With `cores`, every process is
 * pinned to cores 0..cores-1 and DuckDB runs that many threads; the gate's default sees the pinned
 * cores itself (Node's availableParallelism follows the affinity mask).
 */
export type EngineId = 'gate' | 'duckdb' | 'plain';

export interface Engine {
  readonly id: EngineId;
  readonly name: string;
  readonly args: (shape: Shape) => string[];
  /** The command the process runs under (taskset), empty when not pinned. */
  readonly pin: readonly string[];
  /** Exit statuses of a run that finished: the gate exits 1 on a failing partition. */
  readonly okStatus: readonly number[];
  readonly verdict?: (m: Measurement) => Verdict;
}

export function engines(dist: string, workers: string | undefined, plain: boolean, cores?: number): Engine[] {
  const pin = cores === undefined ? [] : pinTo(cores);
  const threads = cores === undefined ? [] : ['--threads', String(cores)];
  const list: Engine[] = [
    {
      id: 'gate', name: 'contract-gate validate', okStatus: [0, 1], verdict: gateVerdict, pin,
      args: (s) => [join(dist, 'lib', 'cli', 'main.js'), 'validate', '--contract', s.contract, partitionDir(s), '--format', 'json', '--now', NOW, ...(workers === undefined ? [] : ['--workers', workers])],
    },
    { id: 'duckdb', name: 'DuckDB SQL checks', okStatus: [0], verdict: duckdbVerdict, pin, args: (s) => [join(dist, 'bench', 'duckdb-checks.js'), ...threads, s.contract, NOW, partitionDir(s)] },
  ];
  if (plain) list.push({ id: 'plain', name: 'plain hyparquet decode', okStatus: [0], pin, args: (s) => [join(dist, 'bench', 'plain-decode.js'), COLUMNS.join(','), partitionDir(s)] });
  return list;
}

/** `taskset -c 0` for one core, `taskset -c 0-1` for two, ... */
export function pinTo(cores: number): string[] {
  return ['taskset', '-c', cores === 1 ? '0' : `0-${cores - 1}`];
}

/** The shell line that runs an engine over a shape as the bench did. */
export function commandLine(engine: Engine, shape: Shape): string {
  return [...engine.pin, 'node', ...engine.args(shape)].join(' ');
}

/** Whether an engine runs over a shape: the plain decode knows Parquet and the orders columns only. */
export function runsOn(engine: Engine, shape: Shape): boolean {
  return engine.id !== 'plain' || (shape.format === 'parquet' && shape.contract.endsWith('orders-bench.v1.yaml'));
}

export function gateVerdict(m: Measurement): Verdict {
  const report = JSON.parse(m.stdout) as { status: 'pass' | 'fail'; rows: number; violations: { rule: string; column?: string; count: number }[] };
  const violations: CommonViolation[] = report.violations.map((v) => ({ rule: v.rule, column: v.column ?? null, count: v.count }));
  return { status: report.status, rows: report.rows, violations };
}

export function duckdbVerdict(m: Measurement): Verdict & { phases_ms: Record<string, number> } {
  return JSON.parse(m.stdout);
}
