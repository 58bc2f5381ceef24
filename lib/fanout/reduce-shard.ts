import { rereadKeys } from '../checks/confirm-duplicates.js';
import { DuplicateTally, type DuplicateSummary } from '../checks/duplicate-tally.js';
import { KeyHashes } from '../checks/key-hashes.js';
import { GateError } from '../errors.js';
import type { ReadStats } from '../formats/prefetched-source.js';
import { objectFile } from '../storage/object-file.js';
import { isDecided, runContext, type FanoutDeps, type RunContext } from './fanout-context.js';
import { putRecord, requireRecord } from './fanout-records.js';
import type { FanoutItem, FanoutRun } from './fanout-layout.js';
import { decodePairs } from './key-parts.js';

/** `shards/<k>-<s>.json`: the keys of one shard that truly repeat, confirmed by value. */
export interface ShardResult {
  readonly keySet: number;
  readonly shard: number;
  /** The shard's repeated keys, counted, with their first occurrences: shards share no key, so they add up. */
  readonly duplicates: DuplicateSummary;
  /** What re-reading the candidate rows fetched, for the report's stats. */
  readonly reads: ReadStats;
}

export type ReduceOutcome =
  | { readonly status: 'reduced'; readonly keySet: number; readonly shard: number; readonly duplicates: number }
  | { readonly status: 'skipped'; readonly keySet: number; readonly shard: number; readonly reason: string };

/**
 * One (key set, shard): every file's hashes of the shard together, the hashes that repeat, and
 * those rows re-read and compared by value, by the same code a single handler confirms with.
 */
export async function reduceShard(deps: FanoutDeps, run: FanoutRun, keySet: number, shard: number): Promise<ReduceOutcome> {
  const context = await runContext(deps, run);
  const set = context.keySets[keySet];
  if (!set || shard < 0 || shard >= 2 ** run.shardBits) throw new GateError('bad_arguments', `no shard ${keySet}-${shard} in this run`);
  if (await isDecided(deps, run)) return { status: 'skipped', keySet, shard, reason: 'the drop is decided already' };
  const items = await requireRecord<FanoutItem[]>(deps.store, context.keys.items, 'the plan step');
  const reads: ReadStats = { bytes: 0, requests: 0 };
  const repeated = await repeatedRows(deps, context, keySet, shard);
  const tally = new DuplicateTally([...repeated.values()].reduce((sum, rows) => sum + rows.size, 0));
  for (const [fileIndex, rows] of repeated) {
    const item = items[fileIndex];
    if (!item) throw new GateError('storage_failed', `${context.keys.keyParts(keySet, shard)} has a part for file ${fileIndex}, which the plan does not list`);
    await rereadKeys(context.plan, reads, objectFile(deps.store, item), fileIndex, [{ keySet: set, rows: Uint32Array.from(rows).sort(), tally }]);
  }
  const result: ShardResult = { keySet, shard, duplicates: tally.summary(), reads };
  await putRecord(deps.store, context.keys.shardResult(keySet, shard), result);
  return { status: 'reduced', keySet, shard, duplicates: result.duplicates.count };
}

/** The rows, by file, whose hash occurs more than once across every file's part of the shard. */
async function repeatedRows(deps: FanoutDeps, context: RunContext, keySet: number, shard: number): Promise<Map<number, Set<number>>> {
  const parts = await listParts(deps, context.keys.keyParts(keySet, shard));
  const hashes = new KeyHashes();
  const owners: { fileIndex: number; start: number; rows: Float64Array }[] = [];
  let total = 0;
  for (const part of parts) {
    const pairs = decodePairs(await deps.store.read(part.key, 0, part.size));
    owners.push({ fileIndex: part.fileIndex, start: total, rows: pairs.rows });
    hashes.pushAll(pairs.hashes);
    total += pairs.hashes.length;
  }
  const repeated = new Map<number, Set<number>>();
  let owner = 0;
  for (const ordinal of hashes.candidates()) {
    while (owner + 1 < owners.length && owners[owner + 1]!.start <= ordinal) owner++;
    const { fileIndex, start, rows } = owners[owner]!;
    const found = repeated.get(fileIndex) ?? new Set<number>();
    repeated.set(fileIndex, found);
    found.add(rows[ordinal - start]!);
  }
  return repeated;
}

async function listParts(deps: FanoutDeps, prefix: string): Promise<{ key: string; size: number; fileIndex: number }[]> {
  const parts: { key: string; size: number; fileIndex: number }[] = [];
  for await (const object of deps.store.list(prefix)) {
    const match = /^(\d+)\.bin$/.exec(object.key.slice(prefix.length));
    if (match) parts.push({ key: object.key, size: object.size, fileIndex: Number(match[1]) });
  }
  // Listing order is by key ("10" before "2"); file order makes the shard's record the same bytes on every run.
  return parts.sort((a, b) => a.fileIndex - b.fileIndex);
}
