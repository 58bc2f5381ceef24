import { seededRng, type Rng } from '../seeded-rng.js';
import { FILE_NAMES, type DataPool, type FileVersion } from './data-pool.js';

/** One thing the producer (or the chaos) does, `at` ms after the first marker went in. */
export type Step =
  | { readonly at: number; readonly kind: 'put'; readonly version: FileVersion; readonly why: 'overwrite' | 'add' | 'backfill' }
  | { readonly at: number; readonly kind: 'delete'; readonly name: string }
  | { readonly at: number; readonly kind: 'marker'; readonly body: string; readonly drop: 2 }
  | { readonly at: number; readonly kind: 'reput'; readonly body: string }
  | { readonly at: number; readonly kind: 'kill' };

export type Fault = 'overwrite-good' | 'overwrite-bad' | 'delete' | 'add' | 'reput' | 'backfill-overlap' | 'backfill-replace' | 'kill';

export interface TrialPlan {
  readonly seed: number;
  /** `dt=YYYY-MM-DD`, one per seed: trials of one run never share a partition. */
  readonly partition: string;
  /** Written before the first marker, which follows at t = 0. */
  readonly initial: readonly FileVersion[];
  readonly firstMarker: string;
  /** In time order; the producer runs them one after another, each no earlier than its `at`. */
  readonly steps: readonly Step[];
  readonly faults: readonly Fault[];
}

/** Chances per trial; a trial draws each fault on its own, so some get none and some many. */
const CHANCE = { overwrite: 0.35, delete: 0.2, add: 0.25, reput: 0.3, backfill: 0.3, kill: 0.03, emptyMarker: 0.25 };
/** Validation and carry-out of a drop take some hundreds of ms here: faults land inside that window. */
const WINDOW_MS = 1_500;

export function partitionOf(seed: number): string {
  // Days from 2100 on: due after the data was written, so a good drop is judged at the check time.
  const day = new Date(Date.UTC(2100, 0, 1) + (((seed % 20_000) + 20_000) % 20_000) * 86_400_000);
  return `dt=${day.toISOString().slice(0, 10)}`;
}

/** The whole trial from its seed alone: `OUTSIDE_FIRST_SEED=<seed> FAULT_SEEDS=1` replays its faults. */
export function planTrial(seed: number, pool: DataPool): TrialPlan {
  const rng = seededRng(seed);
  const used = new Map<string, number>(); // good generations taken per name
  const goodOf = (name: string) => {
    const generation = used.get(name) ?? 0;
    used.set(name, generation + 1);
    return pool.byName.get(name)!.good[generation]!;
  };
  // Never the same bytes twice under one key: every write of a trial is a new version.
  const usedBad = new Set<FileVersion>();
  const anyOf = (name: string, badChance: number) => {
    const bad = pool.byName.get(name)!.bad.filter((v) => !usedBad.has(v));
    if (bad.length === 0 || !rng.chance(badChance)) return goodOf(name);
    const version = rng.pick(bad);
    usedBad.add(version);
    return version;
  };
  const names = shuffled(rng, FILE_NAMES).slice(0, 2 + rng.int(3));
  const initial = names.map((name) => anyOf(name, 0.15));
  const steps: Step[] = [];
  const faults: Fault[] = [];
  const staged = new Set(names);
  const backfill = rng.chance(CHANCE.backfill);
  const empty = !backfill && rng.chance(CHANCE.emptyMarker);
  const firstMarker = empty ? '' : markerBody(seed, 1, initial);
  if (rng.chance(CHANCE.overwrite)) {
    for (let i = 0, n = 1 + rng.int(2); i < n; i++) {
      const version = anyOf(rng.pick(names), 0.4);
      faults.push(version.kind === 'good' ? 'overwrite-good' : 'overwrite-bad');
      steps.push({ at: rng.int(WINDOW_MS), kind: 'put', version, why: 'overwrite' });
    }
  }
  if (rng.chance(CHANCE.delete)) {
    faults.push('delete');
    steps.push({ at: rng.int(WINDOW_MS), kind: 'delete', name: rng.pick(names) });
  }
  const spare = FILE_NAMES.filter((name) => !staged.has(name));
  if (rng.chance(CHANCE.add) && spare.length > 0) {
    const name = rng.pick(spare);
    staged.add(name);
    faults.push('add');
    steps.push({ at: rng.int(WINDOW_MS), kind: 'put', version: anyOf(name, 0.3), why: 'add' });
  }
  if (rng.chance(CHANCE.reput)) {
    faults.push('reput');
    // Half start at once (the drop still in the gate's hands), half later (most likely carried out).
    let at = rng.chance(0.5) ? 0 : 1_500 + rng.int(2_500);
    for (let i = 0, n = 1 + rng.int(3); i < n; i++) steps.push({ at: (at += rng.int(501)), kind: 'reput', body: firstMarker });
  }
  if (backfill) steps.push(...backfillSteps(rng, seed, names, goodOf, anyOf, faults));
  if (rng.chance(CHANCE.kill)) {
    faults.push('kill');
    steps.push({ at: rng.int(2 * WINDOW_MS), kind: 'kill' });
  }
  // A stable sort: the backfill's files stay before its marker.
  steps.sort((a, b) => a.at - b.at);
  return { seed, partition: partitionOf(seed), initial, firstMarker, steps, faults };
}

/** A second complete drop 0–300 ms after the first: the same names with new bytes, or other names. */
function backfillSteps(rng: Rng, seed: number, names: readonly string[], goodOf: (name: string) => FileVersion, anyOf: (name: string, bad: number) => FileVersion, faults: Fault[]): Step[] {
  const overlap = rng.chance(0.5);
  faults.push(overlap ? 'backfill-overlap' : 'backfill-replace');
  const others = shuffled(rng, FILE_NAMES.filter((name) => !names.includes(name)));
  const chosen = overlap ? [...names.slice(0, 1 + rng.int(names.length)), ...others.slice(0, rng.int(2))] : others.slice(0, Math.max(1, Math.min(others.length, 1 + rng.int(3))));
  const files = chosen.map((name) => (rng.chance(0.8) ? goodOf(name) : anyOf(name, 1)));
  const at = rng.int(301);
  return [
    ...files.map((version): Step => ({ at, kind: 'put', version, why: 'backfill' })),
    { at, kind: 'marker', body: markerBody(seed, 2, files), drop: 2 },
  ];
}

/** A `_READY` manifest of the drop's files, with a nonce so its ETag names this marker alone. */
function markerBody(seed: number, drop: number, files: readonly FileVersion[]): string {
  return `${JSON.stringify({ files: files.map((f) => ({ path: f.name, size: f.size })), nonce: `seed-${seed}-drop-${drop}` })}\n`;
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
