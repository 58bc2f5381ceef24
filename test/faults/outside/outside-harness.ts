import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkCarryOut, checkNoLoss } from './check-carry-out.js';
import { checkDecisions } from './check-decisions.js';
import { checkNotices, readNotices, type NoticeStats } from './check-notices.js';
import { checkPublished } from './check-published.js';
import { makeDataPool, type DataPool } from './data-pool.js';
import { clearPartition, markersGone, prefixes, quiesce, readPartition, type PartitionState } from './final-state.js';
import { reporter, type OutsideViolation, type TrialView } from './invariants.js';
import { Lake } from './lake-client.js';
import { runProducer } from './producer.js';
import { revalidate } from './revalidate.js';
import { freePort, ServeProcess, type ServeBuild } from './serve-process.js';
import { planTrial, type Fault } from './trial-plan.js';

export interface OutsideOptions {
  readonly seeds: readonly number[];
  /** Trials producing at once against the one serve. */
  readonly parallel: number;
  /** How long a trial's markers may take to go once its producer stopped. */
  readonly settleMs: number;
  readonly build: ServeBuild;
  /** Keep the run's directory (and every trial's data) for a post-mortem. */
  readonly keep: boolean;
  /** This checkout: the contract and the validator the checker uses. */
  readonly root: string;
  /** The checkout whose `serve` is under test (another one, e.g. an export of HEAD). @default root */
  readonly gateRoot?: string;
  readonly onTrial?: (trial: TrialResult, done: number) => void;
}

export interface TrialResult {
  readonly seed: number;
  readonly partition: string;
  readonly faults: readonly Fault[];
  readonly killed: boolean;
  readonly outcomes: readonly string[];
  readonly violations: OutsideViolation[];
  /** The harness itself could not finish the trial (not a gate invariant; fails the run too). */
  readonly error?: string;
}

export interface OutsideRun {
  readonly trials: TrialResult[];
  /** Trials whose decisions or notice claims changed after they were checked: the gate was still at work. */
  readonly late: number[];
  readonly dir: string;
  readonly serve: { readonly starts: number; readonly kills: number; readonly crashes: number };
  readonly notices: NoticeStats;
}

/** A slot is held while a trial produces and for the start of its settling; a stuck trial waits outside it. */
const SLOT_SETTLE_MS = 5_000;
/** A drop is done well within this after its marker here, unless something went wrong. */
const KILL_WINDOW_MS = 15_000;

/**
 * Starts one `serve` (restarted after each SIGKILL), runs every seed's trial on a partition of its
 * own, `parallel` at a time, and checks the invariants: the partition's final state after each
 * trial settles, the notices once serve has stopped and every handler is done.
 */
export async function runOutside(options: OutsideOptions): Promise<OutsideRun> {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'cg-outside-'));
  const contract = resolve(options.root, 'contracts/orders.v1.yaml');
  const pool = makeDataPool();
  const gateRoot = options.gateRoot ?? options.root;
  const serve = new ServeProcess({ root: gateRoot, dir, contracts: resolve(gateRoot, 'contracts'), port: await freePort(), build: options.build });
  await serve.start();
  const lake = new Lake(serve.endpoint, () => serve.ready());
  const trials: TrialResult[] = [];
  const views: TrialView[] = [];
  const stamps = new Map<number, string>();
  const late: number[] = [];
  const queue = [...options.seeds];
  let free = Math.max(1, options.parallel);
  const waiting: (() => void)[] = [];
  const acquire = () => (free > 0 ? ((free -= 1), Promise.resolve()) : new Promise<void>((go) => waiting.push(go)));
  const release = () => (waiting.length > 0 ? waiting.shift()!() : (free += 1));
  const running: Promise<void>[] = [];
  try {
    for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
      await acquire();
      const trial = runTrial({ lake, serve, pool, contract, scratch: join(dir, 'revalidate'), options }, seed, release).then(
        ({ result, view, stamp }) => {
          trials.push(result);
          views.push(view);
          stamps.set(seed, stamp);
          options.onTrial?.(result, trials.length);
        },
        (error: unknown) => {
          const result = { seed, partition: '', faults: [], killed: false, outcomes: [], violations: [], error: String((error as Error)?.stack ?? error) };
          trials.push(result);
          options.onTrial?.(result, trials.length);
        },
      );
      running.push(trial);
    }
    await Promise.all(running);
    late.push(...(await lateTrials(lake, views, stamps)));
  } finally {
    await serve.stop();
    lake.close();
  }
  const notices = readNotices(join(dir, 'notifications.jsonl'));
  const stats: NoticeStats = { notices: 0, byDrop: 0 };
  for (const view of views) checkNotices(view, notices, reporter(view, trials.find((t) => t.seed === view.plan.seed)!.violations), stats);
  if (!options.keep) rmSync(dir, { recursive: true, force: true });
  trials.sort((a, b) => a.seed - b.seed);
  return { trials, late, dir, serve: { starts: serve.starts, kills: serve.kills, crashes: serve.crashes }, notices: stats };
}

interface TrialEnv {
  readonly lake: Lake;
  readonly serve: ServeProcess;
  readonly pool: DataPool;
  readonly contract: string;
  readonly scratch: string;
  readonly options: OutsideOptions;
}

type Checked = { result: TrialResult; view: TrialView; stamp: string };

async function runTrial(env: TrialEnv, seed: number, release: () => void): Promise<Checked> {
  let released = false;
  const releaseOnce = () => void (released || ((released = true), release()));
  try {
    return await checkedTrial(env, seed, releaseOnce);
  } finally {
    releaseOnce();
  }
}

async function checkedTrial(env: TrialEnv, seed: number, releaseOnce: () => void): Promise<Checked> {
  const plan = planTrial(seed, env.pool);
  const startedAt = Date.now();
  const ledger = await runProducer({ lake: env.lake, kill: () => env.serve.killAndRestart() }, plan);
  const timer = setTimeout(releaseOnce, SLOT_SETTLE_MS);
  let settled: boolean;
  try {
    settled = await markersGone(env.lake, plan.partition, env.options.settleMs);
  } finally {
    clearTimeout(timer);
    releaseOnce();
  }
  // Lived through a crash while its drops were in the gate's hands: a SIGKILL from its start to
  // KILL_WINDOW_MS after its last marker (a later one is not why a marker stayed).
  const lastMarker = Math.max(...ledger.markers.map((m) => m.putAt));
  const killed = env.serve.killedAt.some((at) => at >= startedAt && at <= lastMarker + KILL_WINDOW_MS);
  await quiesce(env.lake, plan.partition, lastMarker);
  const stamp = await recordsStamp(env.lake, plan.partition);
  const state = await readPartition(env.lake, plan.partition);
  const view: TrialView = { plan, ledger, state, pool: env.pool, killed, settled };
  const violations: OutsideViolation[] = [];
  const report = reporter(view, violations);
  const revalidation = state.published.size > 0 ? await revalidate(env.contract, env.scratch, `${seed}/${plan.partition}`, state.published) : undefined;
  checkDecisions(view, report);
  checkCarryOut(view, report);
  checkNoLoss(view, report);
  checkPublished(view, revalidation, report);
  if (!env.options.keep) await clearPartition(env.lake, plan.partition);
  const outcomes = state.decisions.map((d) => d.record?.outcome ?? '?');
  // The notices are checked at the end, against the decisions alone: the bytes are let go now.
  return { result: { seed, partition: plan.partition, faults: plan.faults, killed, outcomes, violations }, view: { ...view, state: decisionsOnly(state) }, stamp };
}

/** The gate's records of a partition (decisions, notice claims) by key and ETag. */
async function recordsStamp(lake: Lake, partition: string): Promise<string> {
  const p = prefixes(partition);
  const lists = await Promise.all([lake.list(p.decisions), lake.list(p.notices)]);
  return JSON.stringify(lists.flat().map((o) => [o.key, o.etag]));
}

/**
 * Before serve stops: trials whose records changed since their check. Their decisions are read
 * again, so the notices are matched with the final ones; their other checks may be stale.
 */
async function lateTrials(lake: Lake, views: TrialView[], stamps: ReadonlyMap<number, string>): Promise<number[]> {
  const late: number[] = [];
  for (const [i, view] of views.entries()) {
    if ((await recordsStamp(lake, view.plan.partition)) === stamps.get(view.plan.seed)) continue;
    late.push(view.plan.seed);
    views[i] = { ...view, state: decisionsOnly(await readPartition(lake, view.plan.partition)) };
  }
  return late.sort((a, b) => a - b);
}

function decisionsOnly(state: PartitionState): PartitionState {
  return { staging: new Map(), markers: [], published: new Map(), success: undefined, quarantine: new Map(), replaced: new Map(), decisions: state.decisions };
}
