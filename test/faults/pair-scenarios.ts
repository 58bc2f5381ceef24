import { NO_FAULTS, type FaultPlan } from './fault-plan.js';
import type { DropKind } from './five-file-drop.js';
import type { Delivery } from './handler-run.js';
import type { MutationCounts } from './scenarios.js';
import type { Rng } from './seeded-rng.js';

/**
 * A linked pair's trial: orders v1 and v2 of one partition, each side's marker naming the other.
 * `staggered`: the v2 side is staged only after the v1 side's deliveries ran (it waited alone).
 */
export interface PlannedPair {
  readonly kinds: readonly [DropKind, DropKind];
  readonly staggered: boolean;
  readonly deliveries: readonly [readonly Delivery[], readonly Delivery[]];
}

export interface PairScenario {
  readonly name: string;
  plan(rng: Rng, run: number, counts: MutationCounts): PlannedPair;
  readonly sequential: boolean;
  readonly redelivery: FaultPlan;
}

const once = (plan: FaultPlan): Delivery[] => [{ plan, via: 'marker', startDelayMs: 0 }];

/** Good pairs publish; a pair with any bad side (bad, or a repeated key) is quarantined whole. */
function kinds(rng: Rng): readonly [DropKind, DropKind] {
  return rng.pick([['good', 'good'], ['good', 'good'], ['good', 'bad'], ['bad', 'good'], ['duplicate', 'good'], ['bad', 'bad']] as const);
}

/** Run n kills the settling handler at the next mutating call of a good pair's, then a failing pair's, settling; either side's marker is delivered. */
function crashSweep(mode: 'before' | 'after'): PairScenario {
  return {
    name: `pair-crash-${mode}`,
    sequential: true,
    redelivery: NO_FAULTS,
    plan(rng, run, counts) {
      const points = [...Array.from({ length: counts.good }, (_, i) => [['good', 'good'], i + 1] as const), ...Array.from({ length: counts.bad }, (_, i) => [['good', 'bad'], i + 1] as const)];
      const [pair, at] = points[run % points.length] ?? [['good', 'good'], 1];
      const side = rng.int(2);
      const deliveries: [Delivery[], Delivery[]] = side === 0 ? [once({ crash: { mode, at } }), []] : [[], once({ crash: { mode, at } })];
      return { kinds: rng.chance(0.5) ? pair : [pair[1], pair[0]], staggered: false, deliveries };
    },
  };
}

/** Handlers of both sides at once, with jitter, meeting `plan`. */
function concurrent(name: string, counts: readonly number[], plan: FaultPlan, jitterMs: number, via: (rng: Rng) => Delivery['via']): PairScenario {
  const handlers = (rng: Rng): Delivery[] => Array.from({ length: rng.pick(counts) }, () => ({ plan, via: via(rng), startDelayMs: rng.int(jitterMs + 1) }));
  return { name, sequential: false, redelivery: NO_FAULTS, plan: (rng) => ({ kinds: kinds(rng), staggered: false, deliveries: [handlers(rng), handlers(rng)] }) };
}

/** One side alone first (it waits for its sibling), then the sibling arrives; crashes on the way. */
const staggered: PairScenario = {
  name: 'pair-staggered',
  sequential: true,
  redelivery: { crashChance: 0.05 },
  plan: (rng) => ({ kinds: kinds(rng), staggered: true, deliveries: [once({ crashChance: 0.05 }), once({ crashChance: 0.05 })] }),
};

/** Each side's one handler meets one kind of S3 fault, and so do the redeliveries. */
const STEADY: readonly FaultPlan[] = [{ slowDown: 0.3 }, { internalError: 0.3 }, { resetAfterApply: 0.2 }, { conflict: 0.4 }];
const steady: PairScenario = {
  name: 'pair-steady-faults',
  sequential: true,
  redelivery: NO_FAULTS,
  plan: (rng) => {
    const plan = rng.pick(STEADY);
    return { kinds: kinds(rng), staggered: false, deliveries: [once(plan), once(plan)] };
  },
};

/** Deliveries in turn, each stopped by a deadline part way (a second of virtual time per request). */
const deadline: PairScenario = {
  name: 'pair-deadline',
  sequential: true,
  redelivery: NO_FAULTS,
  plan: (rng) => {
    const handlers = (r: Rng): Delivery[] => Array.from({ length: 1 + r.int(2) }, () => ({ plan: NO_FAULTS, via: 'marker' as const, startDelayMs: 0, deadline: { budgetMs: r.int(70) * 1_000, tickMs: 1_000 } }));
    return { kinds: kinds(rng), staggered: false, deliveries: [handlers(rng), handlers(rng)] };
  },
};

const CHAOS: FaultPlan = { crashChance: 0.04, slowDown: 0.08, internalError: 0.05, resetAfterApply: 0.05, conflict: 0.1, slowChance: 0.2, slowMs: 30 };

export const PAIR_SCENARIOS: readonly PairScenario[] = [
  crashSweep('before'),
  crashSweep('after'),
  concurrent('pair-concurrent', [1, 2, 4], NO_FAULTS, 50, () => 'marker'),
  concurrent('pair-chaos', [1, 2, 3], CHAOS, 100, (r) => r.pick(['marker', 'marker', 's3-event', 'sqs-event'] as const)),
  staggered,
  steady,
  deadline,
];

export function pairScenarioFor(seed: number): { scenario: PairScenario; run: number } {
  const scenario = PAIR_SCENARIOS[seed % PAIR_SCENARIOS.length] ?? PAIR_SCENARIOS[0]!;
  return { scenario, run: Math.floor(seed / PAIR_SCENARIOS.length) };
}
