import type { Invocation } from './lambda-invoke.js';
import { median, TWO_VCPU_MB, type cpuRatios, type Deployed, type Estimate } from './lambda-sizing.js';

/** The bench's table and its sizing lines, on stdout. */
const MB = 2 ** 20;

export interface Row {
  readonly rows: number; readonly variant: string; readonly cpus: string; readonly memory_mb: number; readonly runs: number; readonly mb: number;
  readonly check_threads: number; readonly threads_started: number;
  readonly wall_s: number; readonly init_ms: number; readonly rows_per_s: number; readonly mb_per_s: number;
  readonly peak_rss_mb: number; readonly peak_heap_mb: number; readonly peak_buffers_mb: number; readonly cpu_s: number; readonly cpu_per_wall: number; readonly queued_s: number;
  readonly read_s: number; readonly read_wait_s: number; readonly carry_out_s: number; readonly fetched_share: number; readonly requests: number;
  readonly walls_s: number[];
}

/** Medians per (size, variant, CPUs) over the runs that did what the gate promises. */
export function summaryRows(runs: readonly Invocation[]): Row[] {
  const groups = new Map<string, Invocation[]>();
  for (const r of runs.filter((r) => r.problems.length === 0)) {
    const key = `${r.rows}|${r.variant}|${r.cpus}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((list) => {
    const m = (pick: (r: Invocation) => number) => median(list.map(pick));
    const first = list[0]!;
    const wall = m((r) => r.handler_ms) / 1000;
    return {
      rows: first.rows, variant: first.variant, cpus: first.cpus, memory_mb: first.memory_mb, runs: list.length, mb: first.bytes / MB,
      check_threads: m((r) => r.check_threads), threads_started: m((r) => r.threads_started),
      wall_s: wall, init_ms: m((r) => r.init_ms), rows_per_s: first.rows / wall, mb_per_s: first.bytes / MB / wall,
      peak_rss_mb: m((r) => r.peak_rss_mb), peak_heap_mb: m((r) => r.memory.heap_used_mb), peak_buffers_mb: m((r) => r.memory.array_buffers_mb),
      cpu_s: m((r) => r.cpu_ms) / 1000, cpu_per_wall: m((r) => r.cpu_ms / r.process_ms), queued_s: m((r) => r.queued_ms) / 1000,
      read_s: m((r) => r.phases.read_ms) / 1000, read_wait_s: m((r) => r.phases.read_wait_ms) / 1000, carry_out_s: m((r) => r.phases.carry_out_ms) / 1000,
      fetched_share: m((r) => r.phases.data_bytes_read / r.bytes), requests: m((r) => r.phases.requests),
      walls_s: list.map((r) => Number((r.handler_ms / 1000).toFixed(2))),
    };
  }).sort((a, b) => a.rows - b.rows || a.variant.localeCompare(b.variant) || a.cpus.localeCompare(b.cpus));
}

/** Two tables: the figures asked for, then where each invocation's time and memory went. */
export function printTable(rows: readonly Row[]): void {
  const label = (r: Row) => [r.rows.toLocaleString('en-US'), r.variant === 'bad' ? 'bad → quarantined' : 'good → published', `${r.cpus} @ ${r.memory_mb} MB`];
  printGrid(['rows', 'drop', 'CPUs @ memory', 'MB', 'wall s', 'rows/s', 'MB/s', 'peak RSS MB', 'CPU s', 'threads (+OS)', 'runs (wall s)'], rows.map((r) => [
    ...label(r), r.mb.toFixed(0), r.wall_s.toFixed(2), Math.round(r.rows_per_s).toLocaleString('en-US'), r.mb_per_s.toFixed(1),
    r.peak_rss_mb.toFixed(0), r.cpu_s.toFixed(2), `${r.check_threads} (+${r.threads_started})`, r.walls_s.join(', '),
  ]));
  console.log('');
  printGrid(['rows', 'drop', 'CPUs @ memory', 'queued s', 'CPU/wall', 'init ms', 'read s', 'of it waiting', 'carry-out s', 'fetched', 'requests', 'heap/buffers MB'], rows.map((r) => [
    ...label(r), r.queued_s.toFixed(2), r.cpu_per_wall.toFixed(2), r.init_ms.toFixed(0), r.read_s.toFixed(2), r.read_wait_s.toFixed(2), r.carry_out_s.toFixed(2),
    `${(r.fetched_share * 100).toFixed(0)}%`, String(r.requests), `${r.peak_heap_mb.toFixed(0)}/${r.peak_buffers_mb.toFixed(0)}`,
  ]));
}

/** Text left-aligned in the label columns (drop) and the last, numbers right-aligned. */
function printGrid(header: readonly string[], body: readonly string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 1 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const cells of body) console.log(line(cells));
}

export function printSizing(deployed: Deployed, estimates: readonly Estimate[], ratios: ReturnType<typeof cpuRatios>): void {
  const shown = (n: number, text: string) => (Number.isNaN(n) ? 'n/a (needs two sizes)' : Number.isFinite(n) ? text : 'unbounded');
  const gb = (bytes: number) => shown(bytes, `${(bytes / 1024 ** 3).toFixed(2)} GiB`);
  const count = (n: number) => shown(n, `${(n / 1e6).toFixed(0)}M`);
  console.log(`\nlargest partition per invocation (${deployed.memoryMb} MB, 1 CPU; budget ${deployed.timeoutS} s timeout − ${deployed.marginS} s margin = ${deployed.timeoutS - deployed.marginS} s):`);
  for (const e of estimates) {
    console.log(`  ${e.variant.padEnd(4)}: ${count(e.max_rows)} rows ≈ ${gb(e.max_bytes)} (by time ${count(e.max_rows_by_time)}: at the ${e.variant} rate ${count(e.max_rows_at_rate)}, by the fit ${count(e.max_rows_by_fit)} with ${e.fixed_s.toFixed(2)} s fixed + ${e.us_per_row.toFixed(3)} µs/row; by memory ${count(e.max_rows_by_memory)}; ${e.bytes_per_row.toFixed(1)} B/row)`);
  }
  console.log(`  fan-out ${deployed.fanout.enabled ? 'on' : 'off'} in "${deployed.env}"; its maxBytes ${gb(deployed.fanout.maxBytes)}, maxFiles ${deployed.fanout.maxFiles}`);
  for (const r of ratios) {
    console.log(`second vCPU (${r.variant}, ${r.rows.toLocaleString('en-US')} rows): taskset -c 0 @ ${deployed.memoryMb} MB ${r.one_cpu_s.toFixed(2)} s / -c 0,1 @ ${TWO_VCPU_MB} MB ${r.two_cpu_s.toFixed(2)} s = ${r.ratio.toFixed(2)}x; CPU/wall ${r.cpu_per_wall_1.toFixed(2)} vs ${r.cpu_per_wall_2.toFixed(2)}`);
  }
}
