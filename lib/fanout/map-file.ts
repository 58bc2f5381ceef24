import { checkSlice, type SliceResult } from '../checks/check-slice.js';
import { joinSegments } from '../checks/repeated-keys.js';
import { objectFile } from '../storage/object-file.js';
import { isDecided, runContext, type FanoutDeps } from './fanout-context.js';
import { putRecord } from './fanout-records.js';
import type { FanoutItem, FanoutRun } from './fanout-layout.js';
import { splitByShard } from './key-parts.js';

/** `files/<index>.json`: what checking one file found, its key hashes kept apart in shards. */
export type FileResult = Omit<SliceResult, 'hashes'>;

export type MapFileOutcome =
  | { readonly status: 'checked'; readonly fileIndex: number; readonly rows: number }
  | { readonly status: 'skipped'; readonly fileIndex: number; readonly reason: string };

/**
 * One map item: checks one staged file as the first and only slice of it, exactly as a single
 * handler would, then writes its key hashes by shard and its result. The result goes last, so
 * a result on record means the file's shards are too. A re-run writes the same bytes.
 */
export async function mapFile(deps: FanoutDeps, run: FanoutRun, item: FanoutItem): Promise<MapFileOutcome> {
  const { plan, keys } = await runContext(deps, run);
  if (await isDecided(deps, run)) return { status: 'skipped', fileIndex: item.index, reason: 'the drop is decided already' };
  const { hashes, ...result } = await checkSlice(plan, objectFile(deps.store, item), { fileIndex: item.index, first: true });
  for (const [keySet, keyHashes] of hashes.entries()) {
    for (const [shard, part] of splitByShard(joinSegments(keyHashes), run.shardBits)) await deps.store.put(keys.keyPart(keySet, shard, item.index), part);
  }
  const fileResult: FileResult = result;
  await putRecord(deps.store, keys.fileResult(item.index), fileResult);
  return { status: 'checked', fileIndex: item.index, rows: result.rows };
}
