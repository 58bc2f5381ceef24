import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { duckdbVerdict, gateVerdict } from './bench-engines.js';
import { measure, median, type Measurement } from './measure-process.js';
import { NOW, ORDERS_SCHEMA, orderId, ordersBase, PARTITION } from './orders-data.js';
import { canonical, verdictDifference } from './violation-set.js';

/**
 * A small file as a fresh process: what a producer's pre-publish hook pays for every drop. One
 * 1,000-row orders file with a violation of each kind, validated by the CLI the package's `bin`
 * runs and answered by a fresh Node process running the same checks with DuckDB, alternating
 * process by process; start-up dominates both. Knobs: BENCH_SMALL=0 skips it, BENCH_SMALL_RUNS
 * sets the processes per engine (9).
 */
export const SMALL_ROWS = 1_000;
const CONTRACT = join('bench', 'contracts', 'orders-bench.v1.yaml');

/** Row 10 lacks its customer, row 20 has an unknown status, row 30 repeats row 5's key: the gate fails it. */
const PLANTS = [
  { row: 10, column: 'customer_id', value: null },
  { row: 20, column: 'status', value: 'pending' },
  { row: 30, column: 'order_id', value: orderId(5) },
] as const;
const PLANTED = canonical([
  { rule: 'required', column: 'customer_id', count: 1 }, { rule: 'enum', column: 'status', count: 1 }, { rule: 'grain', column: null, count: 1 },
]);

export interface SmallFileResult {
  readonly rows: number;
  readonly runs: number;
  readonly gate: EngineFigures;
  readonly duckdb: EngineFigures;
  /** The gate's median wall over DuckDB's. */
  readonly ratio: number;
  /** Undefined when both engines gave the same verdict and counts in every run. */
  readonly problem: string | undefined;
}

interface EngineFigures { readonly wall_ms: number[]; readonly wall_ms_median: number; readonly cpu_ms_median: number; readonly peak_rss_mb_median: number }

/** `cli` is the gate's entry as the package's `bin` runs it; `dist` holds bench/duckdb-checks.js. Undefined with BENCH_SMALL=0. */
export function smallFileSection(dist: string, cli: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): SmallFileResult | undefined {
  if (env.BENCH_SMALL === '0') return undefined;
  const runs = Number(env.BENCH_SMALL_RUNS ?? 9);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('BENCH_SMALL_RUNS must be a whole number >= 1');
  const dir = mkdtempSync(join(tmpdir(), 'cg-bench-small-'));
  try {
    const partition = writeSmallFile(dir);
    const gate: Measurement[] = [];
    const duckdb: Measurement[] = [];
    for (let run = 0; run < runs; run++) {
      gate.push(measure([cli, 'validate', '--contract', CONTRACT, partition, '--format', 'json', '--now', NOW], [0, 1], timeoutMs));
      duckdb.push(measure([join(dist, 'bench', 'duckdb-checks.js'), CONTRACT, NOW, partition], [0], timeoutMs));
    }
    const figures = { gate: engineFigures(gate), duckdb: engineFigures(duckdb) };
    return { rows: SMALL_ROWS, runs, ...figures, ratio: figures.gate.wall_ms_median / figures.duckdb.wall_ms_median, problem: disagreement(gate, duckdb) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The 1,000-row partition `dt=…/part-0.parquet` under `dir`; returns the partition directory. */
export function writeSmallFile(dir: string): string {
  const partition = join(dir, PARTITION);
  mkdirSync(partition, { recursive: true });
  const chunk = ordersBase(0, SMALL_ROWS);
  for (const { row, column, value } of PLANTS) chunk[column]![row] = value;
  const writer = new ParquetWriter({ writer: fileWriter(join(partition, 'part-0.parquet')), schema: ORDERS_SCHEMA, codec: 'SNAPPY', statistics: true });
  writer.write({ columnData: Object.entries(chunk).map(([name, data]) => ({ name, data })), rowGroupSize: SMALL_ROWS });
  writer.finish();
  return partition;
}

function engineFigures(list: readonly Measurement[]): EngineFigures {
  const done = list.filter((m) => m.outcome === 'ok');
  return {
    wall_ms: list.map((m) => Math.round(m.wallMs)), wall_ms_median: median(done.map((m) => m.wallMs)),
    cpu_ms_median: median(done.map((m) => m.cpuMs)), peak_rss_mb_median: median(done.map((m) => m.peakRssBytes)) / 2 ** 20,
  };
}

/** The first run where an engine failed or the two verdicts differ, in one line. */
function disagreement(gate: readonly Measurement[], duckdb: readonly Measurement[]): string | undefined {
  for (let run = 0; run < gate.length; run++) {
    const failed = [gate[run]!, duckdb[run]!].find((m) => m.outcome !== 'ok');
    if (failed) return `run ${run + 1}: ${failed.outcome}: ${failed.detail}`;
    const difference = verdictDifference(gateVerdict(gate[run]!), duckdbVerdict(duckdb[run]!));
    if (difference) return `run ${run + 1}: gate vs DuckDB: ${difference}`;
  }
  const found = gate.length === 0 ? PLANTED : canonical(gateVerdict(gate[0]!).violations);
  return found === PLANTED ? undefined : `both engines found [${found}], not the planted [${PLANTED}]`;
}

export function printSmallFile(result: SmallFileResult): void {
  const line = (name: string, f: EngineFigures) => `  ${name.padEnd(26)} wall ${f.wall_ms_median.toFixed(0)} ms median (${f.wall_ms.join(', ')}), CPU ${f.cpu_ms_median.toFixed(0)} ms, peak RSS ${f.peak_rss_mb_median.toFixed(0)} MB`;
  console.log(`\nsmall file (${result.rows.toLocaleString('en-US')} rows, Parquet), fresh process each, ${result.runs} alternating runs:`);
  console.log(line('contract-gate validate', result.gate));
  console.log(line('DuckDB (@duckdb/node-api)', result.duckdb));
  console.log(`  gate / DuckDB: ${result.ratio.toFixed(2)}x${result.problem ? `; ${result.problem}` : ''}`);
}
