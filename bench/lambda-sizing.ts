import { readFileSync } from 'node:fs';
import { CALL_MARGIN_MS } from '../lib/gate/deadline-store.js';
import type { Variant } from './lambda-data.js';
import type { Invocation } from './lambda-invoke.js';

/**
 * What the deployment gives one validate invocation, and how big a partition fits in it, from the
 * measured invocations. The figures are read from the deploy code, not restated: cdk.json's
 * environment through environmentConfig (memory, timeout, the fan-out's default limits) and the
 * handler's own safety margin (deadline-store.ts: no storage call starts with less left).
 */
/** Where Lambda gives a function its second full vCPU (one per 1,769 MB). */
export const TWO_VCPU_MB = 3538;

export interface Deployed {
  readonly env: string;
  readonly memoryMb: number;
  readonly timeoutS: number;
  readonly marginS: number;
  /** The fan-out as configured, or its defaults were it switched on. */
  readonly fanout: { readonly enabled: boolean; readonly maxBytes: number; readonly maxFiles: number };
}

export async function deployedConfig(envName: string): Promise<Deployed> {
  const { environmentConfig } = await import('../lib/deploy/environment-config.js');
  const environments = (JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: { environments: Record<string, Record<string, unknown>> } }).context.environments;
  const config = environmentConfig(environments, envName);
  const fanout = config.fanout ?? environmentConfig({ probe: { ...environments[envName], fanout: {} } }, 'probe').fanout!;
  return {
    env: envName, memoryMb: config.validateMemoryMb, timeoutS: config.validateTimeoutSeconds, marginS: CALL_MARGIN_MS / 1000,
    fanout: { enabled: config.fanout?.enabled ?? false, maxBytes: fanout.maxBytes, maxFiles: fanout.maxFiles },
  };
}

export interface Estimate {
  readonly variant: Variant;
  readonly budget_s: number;
  /** handler time = fixed + per_row × rows, least squares over the measured sizes (1 CPU). */
  readonly fixed_s: number;
  readonly us_per_row: number;
  readonly bytes_per_row: number;
  /** budget × the rows/s measured at the largest size (fixed costs spread over it). */
  readonly max_rows_at_rate: number;
  /** (budget − fixed) / per-row cost, from the fit. */
  readonly max_rows_by_fit: number;
  /** The smaller of the two: either may flatter, depending on the sign of the fitted fixed cost. */
  readonly max_rows_by_time: number;
  readonly max_bytes_by_time: number;
  /** Rows at which the fitted peak RSS reaches the memory setting; Infinity when it does not grow. */
  readonly max_rows_by_memory: number;
  readonly max_rows: number;
  readonly max_bytes: number;
}

/** The largest partition of this shape one invocation validates and carries out within timeout − margin. */
export function estimate(variant: Variant, runs: readonly Invocation[], deployed: Deployed): Estimate {
  const mine = runs.filter((r) => r.variant === variant && r.cpus === '0' && r.problems.length === 0);
  const sizes = [...new Set(mine.map((r) => r.rows))].sort((a, b) => a - b);
  const points = sizes.map((rows) => {
    const at = mine.filter((r) => r.rows === rows);
    return { rows, ms: median(at.map((r) => r.handler_ms)), rss: median(at.map((r) => r.peak_rss_mb)), bytes: at[0]!.bytes };
  });
  const time = fit(points.map((p) => [p.rows, p.ms]));
  const rss = fit(points.map((p) => [p.rows, p.rss]));
  const budgetMs = (deployed.timeoutS - deployed.marginS) * 1000;
  const largest = points.at(-1)!;
  const bytesPerRow = largest.bytes / largest.rows;
  const atRate = budgetMs * (largest.rows / largest.ms);
  // A slope this small (or negative) is noise: the fitted line never reaches the limit.
  const reach = (line: Line | undefined, limit: number, floor: number) => (line === undefined ? NaN : line.slope > floor ? (limit - line.intercept) / line.slope : Infinity);
  const byFit = time ? reach(time, budgetMs, 1e-9) : atRate;
  const byTime = Math.min(atRate, byFit);
  // One size cannot tell the fixed memory from the per-row: no memory bound then (NaN), not a wrong one.
  const byMemory = reach(rss, deployed.memoryMb, 1e-7);
  const maxRows = Number.isNaN(byMemory) ? byTime : Math.min(byTime, byMemory);
  return {
    variant, budget_s: budgetMs / 1000, fixed_s: (time?.intercept ?? 0) / 1000, us_per_row: time ? time.slope * 1000 : largest.ms / largest.rows * 1000, bytes_per_row: bytesPerRow,
    max_rows_at_rate: Math.floor(atRate), max_rows_by_fit: Math.floor(byFit), max_rows_by_time: Math.floor(byTime), max_bytes_by_time: Math.floor(byTime * bytesPerRow), max_rows_by_memory: Math.floor(byMemory),
    max_rows: Math.floor(maxRows), max_bytes: Math.floor(maxRows * bytesPerRow),
  };
}

/** Handler time on one CPU over two, per (variant, size) measured both ways: > 1 means the second vCPU helps. */
export function cpuRatios(runs: readonly Invocation[]): { variant: Variant; rows: number; one_cpu_s: number; two_cpu_s: number; ratio: number; cpu_per_wall_1: number; cpu_per_wall_2: number }[] {
  const pairs = [...new Set(runs.filter((r) => r.cpus === '0,1').map((r) => `${r.variant}|${r.rows}`))];
  return pairs.map((pair) => {
    const [variant, rows] = [pair.split('|')[0] as Variant, Number(pair.split('|')[1])];
    const on = (cpus: string) => runs.filter((r) => r.variant === variant && r.rows === rows && r.cpus === cpus && r.problems.length === 0);
    const wall = (cpus: string) => median(on(cpus).map((r) => r.handler_ms)) / 1000;
    const busy = (cpus: string) => median(on(cpus).map((r) => r.cpu_ms / r.process_ms));
    return { variant, rows, one_cpu_s: wall('0'), two_cpu_s: wall('0,1'), ratio: wall('0') / wall('0,1'), cpu_per_wall_1: busy('0'), cpu_per_wall_2: busy('0,1') };
  });
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Line { readonly intercept: number; readonly slope: number }

/** Least squares y = intercept + slope × x; undefined from fewer than two sizes. */
function fit(points: readonly (readonly [number, number])[]): Line | undefined {
  if (points.length < 2) return undefined;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const slope = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx;
  return { intercept: my - slope * mx, slope };
}
