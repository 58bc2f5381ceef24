import type { Decision } from '../../lib/gate/decision.js';
import { converge, deliverAll, partitionFor, runContext, type HarnessEnv, type RunReport } from './fault-run.js';
import { checkFinalState } from './final-state.js';
import { plannedDrop, stageDrop, type StagedDrop } from './five-file-drop.js';
import type { RunContext } from './handler-run.js';
import { pairScenarioFor, type PlannedPair } from './pair-scenarios.js';
import { seededRng } from './seeded-rng.js';
import { startSuccessReader } from './success-reader.js';

const MAJORS = [1, 2] as const;

/**
 * One pair trial: stage a linked v1/v2 drop, run its scenario with a reader polling both
 * `_SUCCESS`es, redeliver both markers, then check each side as a single drop is checked
 * (published only if both sides are good) and that the two sides had one outcome.
 */
export async function runPairSeed(env: HarnessEnv, seed: number): Promise<RunReport> {
  const started = Date.now();
  const { scenario, run } = pairScenarioFor(seed);
  const rng = seededRng(seed);
  const planned = scenario.plan(rng.fork(0), run, env.pairCounts ?? env.counts);
  const partition = partitionFor(seed, 0);
  const sides = [0, 1].map((i) => plannedDrop(planned.kinds[i]!, partition, true, { major: MAJORS[i]!, sibling: MAJORS[1 - i]! }));
  // One object per side from the start, so the reader and the observers follow a staggered side once it is staged.
  const staged = new Set<StagedDrop>();
  const stage = async (drop: StagedDrop) => {
    const { markerEtag } = await stageDrop(env.store, drop.kind, partition, true, { major: drop.major, sibling: 3 - drop.major });
    Object.assign(drop, { markerEtag });
    staged.add(drop);
  };
  const drops = sides;
  for (const drop of planned.staggered ? drops.slice(0, 1) : drops) await stage(drop);
  const ctx = pairContext(runContext(env, drops, rng.fork(1)), drops, staged);
  const reader = startSuccessReader(env.store, drops, ctx.violations);
  try {
    await deliverPlanned(ctx, drops, planned, scenario.sequential, () => stage(drops[1]!));
    for (const drop of drops) await ctx.observerFor(drop).checkpoint();
    for (const drop of drops) await converge(ctx, drop, scenario.redelivery);
  } finally {
    await reader.stop();
  }
  const publishes = planned.kinds.every((kind) => kind === 'good');
  const decisions: (Decision | undefined)[] = [];
  for (const drop of drops) decisions.push(await checkFinalState(env.store, drop, ctx.notices, ctx.violations, publishes));
  checkOneOutcome(partition, decisions, ctx);
  return { seed, scenario: scenario.name, violations: ctx.violations.list, stats: ctx.stats, ms: Date.now() - started };
}

/** Staggered: the first side's deliveries run while it is alone in staging; then the second side is staged and delivered. */
async function deliverPlanned(ctx: RunContext, drops: StagedDrop[], planned: PlannedPair, sequential: boolean, stageSecond: () => Promise<void>): Promise<void> {
  if (!planned.staggered) return void (await Promise.all(drops.map((drop, i) => deliverAll(ctx, drop, planned.deliveries[i]!, sequential))));
  await deliverAll(ctx, drops[0]!, planned.deliveries[0], sequential);
  await stageSecond();
  await deliverAll(ctx, drops[1]!, planned.deliveries[1], sequential);
}

/**
 * Either side's handlers contend with the other side's too (they take the same two leases), and a
 * handler's mutations may move both sides' files, so a checkpoint looks at both.
 */
function pairContext(ctx: RunContext, drops: readonly StagedDrop[], staged: ReadonlySet<StagedDrop>): RunContext {
  const both = { checkpoint: async () => void (await Promise.all(drops.filter((drop) => staged.has(drop)).map((drop) => ctx.observerFor(drop).checkpoint()))) };
  return {
    ...ctx,
    handlersOf: () => drops.reduce((sum, drop) => sum + ctx.handlersOf(drop), 0),
    observerFor: (drop) => (drops.includes(drop) ? both : ctx.observerFor(drop)),
  };
}

function checkOneOutcome(partition: string, decisions: readonly (Decision | undefined)[], ctx: RunContext): void {
  const [a, b] = decisions;
  if (!a || !b || a.outcome === b.outcome) return;
  ctx.violations.add('one-outcome', `${partition}: the linked sides were decided apart: v1 ${a.outcome}, v2 ${b.outcome}`);
}
