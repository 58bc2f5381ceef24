import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeOrders, ordersToParquet, type Plant } from '../test/fixtures/orders-fixture.js';

/**
 * `npm run bench`: validates a 1,000,000-row orders partition with the CLI and decodes the same
 * columns with plain hyparquet, each in its own process, and prints medians of several runs.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DIR = join('bench', 'data', `orders-${ROWS}`, 'dt=2026-11-29');
const FILE = join(DIR, 'part-0000.parquet');
const COLUMNS = 'order_id,status,amount,refund_amount,ordered_at,updated_at,coupon';
const NOW = '2026-11-30T05:00:00Z';

interface Measurement { wallMs: number; peakRssBytes: number; stdout: string }

function ensureData(): void {
  if (existsSync(FILE)) return;
  mkdirSync(DIR, { recursive: true });
  const plant = ([
    { row: 1_000, column: 'amount', value: null },
    { row: 260_000, column: 'status', value: 'pending' },
    { row: 510_000, column: 'amount', value: -3 },
    { row: 760_000, column: 'order_id', value: 'ord_00000000' },
  ] as Plant[]).filter((p) => p.row < ROWS);
  writeFileSync(FILE, ordersToParquet(makeOrders({ rows: ROWS, day: '2026-11-29', plant }), { rowGroupSize: 250_000 }));
}

function measure(args: string[]): Measurement {
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--import', './bench/report-peak-rss.mjs', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const wallMs = performance.now() - started;
  const peak = /@@peak_rss_bytes=(\d+)/.exec(child.stderr);
  if (!peak || (child.status !== 0 && child.status !== 1)) throw new Error(`${args.join(' ')} failed (${child.status}):\n${child.stderr}`);
  return { wallMs, peakRssBytes: Number(peak[1]), stdout: child.stdout };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

ensureData();
const engines = {
  'contract-gate validate': ['dist/lib/cli/main.js', 'validate', '--contract', 'contracts/orders.v1.yaml', DIR, '--format', 'json', '--now', NOW],
  'plain hyparquet decode': ['dist/bench/plain-decode.js', FILE, COLUMNS],
};
const runs: Record<string, Measurement[]> = {};
for (let run = 0; run < RUNS; run++) {
  for (const [name, args] of Object.entries(engines)) (runs[name] ??= []).push(measure(args));
}
const results = Object.entries(runs).map(([engine, measured]) => {
  const wallMs = median(measured.map((m) => m.wallMs));
  return { engine, runs: measured.length, wall_ms: Math.round(wallMs), rows_per_s: Math.round(ROWS / (wallMs / 1000)), peak_rss_mb: Math.round(median(measured.map((m) => m.peakRssBytes)) / 2 ** 20) };
});
const report = JSON.parse(runs['contract-gate validate']![0]!.stdout);
const [gate, plain] = results;
console.log(`orders partition: ${ROWS.toLocaleString('en-US')} rows, 1 file, row groups of 250,000; ${RUNS} runs each, medians`);
console.table(results);
console.log(`validate / plain decode wall time: ${(gate!.wall_ms / plain!.wall_ms).toFixed(2)}x   validate peak RSS: ${gate!.peak_rss_mb} MB (target < 400 MB)`);
console.log(`violations found: ${report.violations.map((v: { rule: string; column?: string; count: number }) => `${v.rule}${v.column ? `:${v.column}` : ''}=${v.count}`).join(', ')}`);
mkdirSync('bench', { recursive: true });
writeFileSync(join('bench', 'results.json'), `${JSON.stringify({ rows: ROWS, results, violations: report.violations.map((v: { rule: string; column?: string; count: number }) => ({ rule: v.rule, column: v.column, count: v.count })) }, null, 2)}\n`);
