import { markerKey } from '../gate/gate-layout.js';
import { dropTag, readDrop, type Drop } from '../gate/read-drop.js';
import { isDecided, runContext, type FanoutDeps } from './fanout-context.js';
import { createRecordOnce } from './fanout-records.js';
import { fanoutKeys, type FanoutItem, type FanoutRun } from './fanout-layout.js';
import { readFanoutRequest } from './request-fanout.js';

/** What the state machine needs after the plan step. */
export interface FanoutPlan {
  readonly run: FanoutRun;
  /** The map's items: a JSON array in the bucket, read by the Distributed Map's ItemReader. */
  readonly itemsKey: string;
  readonly files: number;
  /** The reduce's items: every (key set, shard). */
  readonly shards: readonly { readonly keySet: number; readonly shard: number }[];
  /** Nothing to validate (decided already, or the drop was replaced): go straight to the decide step. */
  readonly skipToDecide: boolean;
}

/** The plan step: from `requested.json` to the map's items, unless the run has nothing left to do. */
export async function planRequested(deps: FanoutDeps, requestKey: string): Promise<FanoutPlan> {
  const { run } = await readFanoutRequest(deps.store, requestKey);
  const marker = await deps.store.head(markerKey(deps.layout, run.address));
  if (!marker || dropTag(marker) !== run.tag || (await isDecided(deps, run))) {
    return { run, itemsKey: fanoutKeys(deps.layout, run).items, files: 0, shards: [], skipToDecide: true };
  }
  return planFanout(deps, run, await readDrop(deps.store, deps.layout, run.address, marker));
}

/**
 * One map item per staged file, written once: a re-run of the plan step keeps the first list, so
 * file indexes mean the same file in every step of the run however often any of them repeats.
 */
export async function planFanout(deps: FanoutDeps, run: FanoutRun, drop: Pick<Drop, 'files'>): Promise<FanoutPlan> {
  const { keySets, keys } = await runContext(deps, run);
  const listed: FanoutItem[] = drop.files.map((file, index) => ({ index, key: file.key, relative: file.relative, size: file.size, etag: file.etag }));
  const items = await createRecordOnce(deps.store, keys.items, listed);
  const shards = keySets.flatMap((_, keySet) => Array.from({ length: 2 ** run.shardBits }, (__, shard) => ({ keySet, shard })));
  return { run, itemsKey: keys.items, files: items.length, shards, skipToDecide: false };
}
