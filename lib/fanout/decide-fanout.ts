import { checkedDecision } from '../gate/decide.js';
import type { Decision } from '../gate/decision.js';
import { markerKey } from '../gate/gate-layout.js';
import { MARKER_STATUS, settleDrop, type MarkerStatus } from '../gate/process-marker.js';
import { dropTag, readDrop, type Drop } from '../gate/read-drop.js';
import type { Notifier } from '../notify/notifier.js';
import { objectFile } from '../storage/object-file.js';
import { buildCheckPlan } from '../checks/check-plan.js';
import { readPlanFacts } from '../lake/plan-facts.js';
import { runContext, type FanoutDeps, type RunContext } from './fanout-context.js';
import { requireRecord } from './fanout-records.js';
import { fanoutKeys, type FanoutItem, type FanoutRun } from './fanout-layout.js';
import type { FileResult } from './map-file.js';
import { mapLimited } from '../storage/map-limited.js';
import { mergeFanout } from './merge-fanout.js';
import type { ShardResult } from './reduce-shard.js';

export type FanoutOutcome =
  | { readonly status: MarkerStatus; readonly decision: Decision }
  | { readonly status: 'nothing_to_do'; readonly reason: string };

/** Results are read this many at a time: a big partition has thousands. */
const READ_CONCURRENCY = 16;

/**
 * The decide step: the merged report becomes a decision through the same protocol as a single
 * handler's (a recorded decision wins, else a conditional create), then it is carried out with
 * its one notification. Repeating the step carries the recorded decision out again, idempotently.
 */
export async function decideFanout(deps: FanoutDeps & { readonly notifier: Notifier; readonly clock?: () => number }, run: FanoutRun): Promise<FanoutOutcome> {
  const decision = await settleDrop({ ...deps, clock: deps.clock ?? (() => run.now) }, run.address, run.tag, async () => {
    const drop = await currentDrop(deps, run);
    return drop && decideChecked(deps, run, drop);
  });
  if (!decision) return { status: 'nothing_to_do', reason: 'the marker is gone or was replaced: a newer drop has a run of its own' };
  return { status: MARKER_STATUS[decision.outcome], decision };
}

async function decideChecked(deps: FanoutDeps, run: FanoutRun, drop: Drop): Promise<Decision> {
  const context = await runContext(deps, run);
  const files = drop.files.map((file) => objectFile(deps.store, file));
  const results = await mapLimited(drop.files.map((_, index) => index), READ_CONCURRENCY, (index) => requireRecord<FileResult>(deps.store, context.keys.fileResult(index), `the map step for file ${index}`));
  const shards = await mapLimited(shardKeys(context, run), READ_CONCURRENCY, (key) => requireRecord<ShardResult>(deps.store, key, 'the reduce step'));
  // Only the merge applies the rules that compare with other partitions: the lake is read once, here.
  const contracts = await deps.contracts.current({ dataset: run.address.dataset, major: run.address.major });
  const facts = await readPlanFacts({ store: deps.store, layout: deps.layout }, contracts, context.contract, run.address.partition);
  const checked = await mergeFanout({ ...context, plan: buildCheckPlan(context.contract, run.now, { ...facts, partition: run.address.partition }) }, files, results, shards);
  return checkedDecision({ location: deps.store.location, now: run.now }, context.contract, drop, checked);
}

/** The drop this run is for, with the files the plan listed; undefined if its marker is no longer there. */
async function currentDrop(deps: FanoutDeps, run: FanoutRun): Promise<Drop | undefined> {
  const marker = await deps.store.head(markerKey(deps.layout, run.address));
  if (!marker || dropTag(marker) !== run.tag) return undefined;
  const items = await requireRecord<FanoutItem[]>(deps.store, fanoutKeys(deps.layout, run).items, 'the plan step');
  // The decision names exactly the files the map checked, not a fresh listing.
  const drop = await readDrop(deps.store, deps.layout, run.address, marker);
  return { ...drop, files: items.map(({ key, relative, size, etag }) => ({ key, relative, size, etag })) };
}

function shardKeys(context: RunContext, run: FanoutRun): string[] {
  return context.keySets.flatMap((_, keySet) => Array.from({ length: 2 ** run.shardBits }, (__, shard) => context.keys.shardResult(keySet, shard)));
}
