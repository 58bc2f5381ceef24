import { GateError } from '../errors.js';
import { datasetPath, type DropAddress, type GateLayout } from '../gate/gate-layout.js';

/**
 * One fan-out run: which drop, and what every step must agree on. It travels in the state
 * machine's payload, so each step rebuilds the same check plan without reading anything else.
 */
export interface FanoutRun {
  readonly address: DropAddress;
  readonly tag: string;
  /** The check time, fixed when the run was requested: every file is held to the same `now`. */
  readonly now: number;
  /** The contract version the run was requested under; a deploy mid-run must not mix two. */
  readonly contractVersion: string;
  /** Each key set's hashes are split into 2^shardBits shards by their top bits. */
  readonly shardBits: number;
}

/** One map item: a staged file of the drop, numbered in listing order. */
export interface FanoutItem {
  readonly index: number;
  readonly key: string;
  readonly relative: string;
  readonly size: number;
  readonly etag: string;
}

/** Where a run keeps its records: `_gate/runs/<name>/v<major>/<partition>/<tag>/...`. */
export function runPrefix(layout: GateLayout, address: DropAddress, tag: string): string {
  return `${layout.state}runs/${datasetPath(address)}${tag}/`;
}

export function fanoutKeys(layout: GateLayout, run: Pick<FanoutRun, 'address' | 'tag'>) {
  const prefix = runPrefix(layout, run.address, run.tag);
  return {
    prefix,
    request: `${prefix}requested.json`,
    items: `${prefix}items.json`,
    fileResult: (fileIndex: number) => `${prefix}files/${fileIndex}.json`,
    keyParts: (keySet: number, shard: number) => `${prefix}keys/${keySet}/${shard}/`,
    keyPart: (keySet: number, shard: number, fileIndex: number) => `${prefix}keys/${keySet}/${shard}/${fileIndex}.bin`,
    shardResult: (keySet: number, shard: number) => `${prefix}shards/${keySet}-${shard}.json`,
  };
}

/** Reads a run from a step's input: the payload comes from outside this process, so it is checked. */
export function parseFanoutRun(value: unknown): FanoutRun {
  const run = value as Partial<FanoutRun> | null;
  const address = run?.address as Partial<DropAddress> | undefined;
  const valid = typeof address?.dataset === 'string' && Number.isInteger(address.major) && typeof address.partition === 'string'
    && typeof run?.tag === 'string' && /^[0-9a-f]+$/.test(run.tag) && Number.isFinite(run.now) && typeof run.contractVersion === 'string'
    && Number.isInteger(run.shardBits) && run.shardBits! >= 0 && run.shardBits! <= 12;
  if (!valid) throw new GateError('bad_arguments', `not a fan-out run: ${JSON.stringify(value)?.slice(0, 300)}`);
  return run as FanoutRun;
}

export function parseFanoutItem(value: unknown): FanoutItem {
  const item = value as Partial<FanoutItem> | null;
  const valid = Number.isInteger(item?.index) && typeof item?.key === 'string' && typeof item.relative === 'string'
    && Number.isInteger(item.size) && typeof item.etag === 'string';
  if (!valid) throw new GateError('bad_arguments', `not a fan-out item: ${JSON.stringify(value)?.slice(0, 300)}`);
  return item as FanoutItem;
}
