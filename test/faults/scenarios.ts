import type { FaultPlan } from './fault-plan.js';
import { NO_FAULTS } from './fault-plan.js';
import type { DropKind } from './five-file-drop.js';
import type { Delivery } from './handler-run.js';
import type { Rng } from './seeded-rng.js';

/** Mutating requests of one fault-free run of a good (publish) and a bad (quarantine) drop. */
export interface MutationCounts {
  readonly good: number;
  readonly bad: number;
}

export interface PlannedDrop {
  readonly kind: DropKind;
  readonly manifest: boolean;
  readonly deliveries: readonly Delivery[];
}

export interface Scenario {
  readonly name: string;
  /** The drops of this scenario's run number `run` and how each is delivered. */
  plan(rng: Rng, run: number, counts: MutationCounts): PlannedDrop[];
  /** Deliveries one after another (at-least-once, retried) rather than overlapping. */
  readonly sequential: boolean;
  /** Faults of the redeliveries that follow; the last redelivery is always fault-free. */
  readonly redelivery: FaultPlan;
}

const once = (plan: FaultPlan): Delivery[] => [{ plan, via: 'marker', startDelayMs: 0 }];

/** One or two drops of random kinds (good, bad, duplicate), each delivered as `deliveries` says. */
function mixedDrops(rng: Rng, deliveries: (rng: Rng) => Delivery[]): PlannedDrop[] {
  return Array.from({ length: 1 + rng.int(2) }, () => ({ kind: rng.pick(['good', 'bad', 'duplicate'] as const), manifest: rng.chance(0.5), deliveries: deliveries(rng) }));
}

/** Run n of a crash scenario takes the next crash point: every mutating call of both kinds in turn. */
function crashSweep(mode: 'before' | 'after'): Scenario {
  return {
    name: `crash-${mode}`,
    sequential: true,
    redelivery: NO_FAULTS,
    plan(rng, run, counts) {
      const points = [...Array.from({ length: counts.good }, (_, i) => ['good', i + 1] as const), ...Array.from({ length: counts.bad }, (_, i) => ['bad', i + 1] as const)];
      const [kind, at] = points[run % points.length] ?? ['good', 1];
      return [{ kind, manifest: rng.chance(0.5), deliveries: once({ crash: { mode, at } }) }];
    },
  };
}

/** A single handler meeting one kind of fault, retried by redeliveries that meet it too. */
function steadyFault(name: string, plan: FaultPlan): Scenario {
  return { name, sequential: true, redelivery: plan, plan: (rng) => mixedDrops(rng, () => once(plan)) };
}

/** Several handlers for each drop, started together with random jitter, meeting `plan`. */
function concurrent(name: string, counts: readonly number[], plan: FaultPlan, jitterMs: number, via: (rng: Rng) => Delivery['via']): Scenario {
  return {
    name,
    sequential: false,
    redelivery: NO_FAULTS,
    plan: (rng) => mixedDrops(rng, (r) => Array.from({ length: r.pick(counts) }, () => ({ plan, via: via(r), startDelayMs: r.int(jitterMs + 1) }))),
  };
}

/** One to three deliveries in turn, each with a deadline the handler must stop cleanly before. */
const deadline: Scenario = {
  name: 'deadline',
  sequential: true,
  redelivery: NO_FAULTS,
  plan: (rng) =>
    mixedDrops(rng, (r) =>
      Array.from({ length: 1 + r.int(3) }, () => ({
        plan: NO_FAULTS,
        via: 'marker' as const,
        startDelayMs: 0,
        // A second of virtual time per request; a whole run takes ~35, so most budgets run out part way.
        deadline: { budgetMs: r.int(40) * 1_000, tickMs: 1_000 },
      })),
    ),
};

/** Every fault at once, milder each, over a few handlers per drop and both event shapes. */
const CHAOS: FaultPlan = { crashChance: 0.04, slowDown: 0.08, internalError: 0.05, resetAfterApply: 0.05, conflict: 0.1, slowChance: 0.2, slowMs: 30 };

export const SCENARIOS: readonly Scenario[] = [
  crashSweep('before'),
  crashSweep('after'),
  steadyFault('slowdown-503', { slowDown: 0.3 }),
  steadyFault('internal-500', { internalError: 0.3 }),
  steadyFault('reset-after-apply', { resetAfterApply: 0.2 }),
  steadyFault('conflict-409', { conflict: 0.4 }),
  concurrent('slow-responses', [1, 2, 4], { slowChance: 0.6, slowMs: 60 }, 30, () => 'marker'),
  concurrent('duplicates', [2, 3, 10], { crashChance: 0.03 }, 400, (r) => r.pick(['s3-event', 'sqs-event'] as const)),
  concurrent('concurrent', [2, 8, 32], NO_FAULTS, 50, () => 'marker'),
  deadline,
  concurrent('chaos', [1, 2, 3, 5], CHAOS, 100, (r) => r.pick(['marker', 'marker', 's3-event', 'sqs-event'] as const)),
];

/** Seeds go round the scenarios, so any count of seeds covers each of them about equally. */
export function scenarioFor(seed: number): { scenario: Scenario; run: number } {
  const scenario = SCENARIOS[seed % SCENARIOS.length] ?? SCENARIOS[0]!;
  return { scenario, run: Math.floor(seed / SCENARIOS.length) };
}
