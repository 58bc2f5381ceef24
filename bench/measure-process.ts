import { spawnSync } from 'node:child_process';

/**
 * Runs one engine as its own Node process with report-peak-rss.mjs preloaded, which prints the
 * process's peak RSS and CPU time on exit. A process past the timeout is killed and reported as
 * TIMEOUT rather than hanging the bench; one that exits with a status its engine does not use
 * is an ERROR. Neither has figures or a verdict. `pin` (a taskset command) runs the process on
 * chosen cores: taskset execs Node in its own place, so the figures are still Node's.
 */
const PRELOAD = './bench/report-peak-rss.mjs';
const MB = 2 ** 20;

export type Outcome = 'ok' | 'timeout' | 'error';

export interface Measurement {
  readonly outcome: Outcome;
  readonly wallMs: number;
  readonly peakRssBytes: number;
  readonly cpuMs: number;
  readonly stdout: string;
  /** For an error or a timeout: the end of stderr, to say why. */
  readonly detail: string;
}

export function measure(args: readonly string[], okStatus: readonly number[], timeoutMs: number, env?: NodeJS.ProcessEnv, pin: readonly string[] = []): Measurement {
  const started = performance.now();
  const [program, ...rest] = [...pin, process.execPath, '--import', PRELOAD, ...args];
  const child = spawnSync(program!, rest, { encoding: 'utf8', maxBuffer: 256 * MB, timeout: timeoutMs, killSignal: 'SIGKILL', ...(env ? { env } : {}) });
  const wallMs = performance.now() - started;
  const stderr = child.stderr ?? '';
  const peak = /@@peak_rss_bytes=(\d+)/.exec(stderr);
  const cpu = /@@cpu_us=(\d+)/.exec(stderr);
  const detail = stderr.replace(/\n?@@\w+=\d+/g, '').trim().slice(-2000);
  if (child.error && (child.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
    return { outcome: 'timeout', wallMs, peakRssBytes: NaN, cpuMs: NaN, stdout: '', detail: `killed after ${(timeoutMs / 1000).toFixed(0)} s` };
  }
  const ok = peak && cpu && child.status !== null && okStatus.includes(child.status);
  if (!ok) return { outcome: 'error', wallMs, peakRssBytes: NaN, cpuMs: NaN, stdout: child.stdout ?? '', detail: `exit ${child.status ?? child.signal}: ${detail}` };
  return { outcome: 'ok', wallMs, peakRssBytes: Number(peak[1]), cpuMs: Number(cpu[1]) / 1000, stdout: child.stdout, detail: '' };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Medians over the runs that finished; `runs` counts those, `failed` the timeouts and errors. */
export function summarise(list: readonly Measurement[]): { runs: number; failed: number; outcome: Outcome; wallMs: number; peakRssBytes: number; cpuMs: number } {
  const done = list.filter((m) => m.outcome === 'ok');
  const failedOne = list.find((m) => m.outcome !== 'ok');
  return {
    runs: done.length, failed: list.length - done.length, outcome: failedOne?.outcome ?? 'ok',
    wallMs: median(done.map((m) => m.wallMs)), peakRssBytes: median(done.map((m) => m.peakRssBytes)), cpuMs: median(done.map((m) => m.cpuMs)),
  };
}
