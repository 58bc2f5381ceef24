import { GateError } from '../errors.js';
import type { GateLayout } from '../gate/gate-layout.js';
import type { Drop } from '../gate/read-drop.js';
import type { ObjectStore } from '../storage/object-store.js';
import { createRecordOnce, requireRecord } from './fanout-records.js';
import { fanoutKeys, parseFanoutRun, type FanoutRun } from './fanout-layout.js';

/** 16 shards per key set: reducers each hold a sixteenth of the partition's hashes. */
export const DEFAULT_SHARD_BITS = 4;

/** `requested.json`: its creation starts the state machine (an EventBridge rule on the bucket). */
export interface FanoutRequest {
  readonly format: 'contract-gate/fanout-request@1';
  readonly run: FanoutRun;
  readonly requested_at: string;
}

/**
 * Asks for a distributed run of a drop. A conditional create, so repeated deliveries of the
 * marker start one run, and the first request's `now` is the one every step checks against.
 */
export async function requestFanout(store: ObjectStore, layout: GateLayout, drop: Drop, options: { now: number; contractVersion: string; shardBits?: number }): Promise<FanoutRequest> {
  const run: FanoutRun = { address: drop.address, tag: drop.tag, now: options.now, contractVersion: options.contractVersion, shardBits: options.shardBits ?? DEFAULT_SHARD_BITS };
  const request: FanoutRequest = { format: 'contract-gate/fanout-request@1', run, requested_at: new Date(options.now).toISOString() };
  return createRecordOnce(store, fanoutKeys(layout, run).request, request);
}

export async function readFanoutRequest(store: ObjectStore, key: string): Promise<FanoutRequest> {
  const request = await requireRecord<FanoutRequest>(store, key, 'the validate function');
  if (request.format !== 'contract-gate/fanout-request@1') throw new GateError('bad_arguments', `${store.location}/${key} is not a fan-out request`);
  return { ...request, run: parseFanoutRun(request.run) };
}
