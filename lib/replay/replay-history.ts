import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import { DEFAULT_LAYOUT, type GateLayout } from '../gate/gate-layout.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { HistoryCandidate } from './history-entry.js';
import { listPublished, publishedRoot, readPublished, type DatasetVersion } from './published-history.js';
import { listQuarantined, quarantineRoot, readQuarantined } from './quarantined-history.js';
import { replayEntry, type ReplayedPartition } from './replay-entry.js';
import { summariseReplay, type ReplaySummary } from './replay-summary.js';
import { partitionTime, type ReplayWindow, type TimeBasis } from './replay-window.js';

export interface ReplayOptions {
  readonly window: ReplayWindow;
  /** Also judge the quarantined attempts (shown, never counted as a failure of the contract). */
  readonly quarantined: boolean;
  /** @default DEFAULT_LAYOUT */
  readonly layout?: GateLayout;
  /** Told before each partition is read, for a progress line. */
  readonly onPartition?: (partition: string) => void;
}

export interface ReplayRun {
  readonly contract: { readonly name: string; readonly version: string };
  readonly location: string;
  readonly window: ReplayWindow;
  readonly quarantined: boolean;
  /** In time order; for one partition its publish before its quarantined attempts. */
  readonly partitions: readonly ReplayedPartition[];
  readonly summary: ReplaySummary;
}

/**
 * What a proposed contract would have decided for the partitions the gate decided in a window:
 * the contract's name and major version say which dataset. Reads only (the store may as well be
 * read-only); a partition that fails is a result, and only a bucket that cannot be read throws.
 */
export async function replayHistory(store: ObjectStore, contract: Contract, options: ReplayOptions): Promise<ReplayRun> {
  const layout = options.layout ?? DEFAULT_LAYOUT;
  const dataset = { dataset: contract.name, major: contract.version.major };
  const published = await listPublished(store, layout, dataset);
  const quarantined = options.quarantined ? await listQuarantined(store, layout, dataset) : [];
  if (published.length === 0 && quarantined.length === 0) await refuseUnknownDataset(store, layout, dataset, options.quarantined);
  const partitions: ReplayedPartition[] = [];
  for (const candidate of [...published, ...quarantined]) {
    const replayed = await replayCandidate(store, contract, candidate, options);
    if (replayed) partitions.push(replayed);
  }
  partitions.sort(inTimeOrder);
  return {
    contract: { name: contract.name, version: contract.version.text },
    location: store.location,
    window: options.window,
    quarantined: options.quarantined,
    partitions,
    summary: summariseReplay(partitions, options.quarantined),
  };
}

/** Reads a record only when its path cannot already place it before the window. */
async function replayCandidate(store: ObjectStore, contract: Contract, candidate: HistoryCandidate, options: ReplayOptions): Promise<ReplayedPartition | undefined> {
  const byPath = partitionTime(contract.produces.partition, candidate.partition);
  if (byPath !== undefined && byPath < options.window.since) return undefined;
  const entry = candidate.source === 'published' ? await readPublished(store, candidate) : await readQuarantined(store, candidate);
  const [time, timeBasis]: [number, TimeBasis] = byPath !== undefined ? [byPath, 'partition'] : entry.decidedAt !== undefined ? [entry.decidedAt, 'decided_at'] : [candidate.record.lastModified.getTime(), 'last_modified'];
  if (time < options.window.since) return undefined;
  options.onPartition?.(candidate.partition);
  return replayEntry(store, contract, entry, { time, timeBasis });
}

/**
 * Nothing of the dataset version in the bucket means the contract or the bucket is the wrong
 * one: answering "all 0 partitions pass" would let a CI step pass on a typo.
 */
async function refuseUnknownDataset(store: ObjectStore, layout: GateLayout, dataset: DatasetVersion, listedQuarantine: boolean): Promise<void> {
  if (!listedQuarantine && (await holdsAnything(store, quarantineRoot(layout, dataset)))) return;
  const where = `${publishedRoot(layout, dataset)} or ${quarantineRoot(layout, dataset)}`;
  throw new GateError('not_found', `${store.location} holds nothing of ${dataset.dataset} v${dataset.major} (no partition under ${where}); is --contract the contract of a dataset the gate publishes into this bucket?`);
}

async function holdsAnything(store: ObjectStore, prefix: string): Promise<boolean> {
  for await (const _object of store.list(prefix)) return true;
  return false;
}

function inTimeOrder(a: ReplayedPartition, b: ReplayedPartition): number {
  return a.time - b.time || compare(a.entry.partition, b.entry.partition) || compare(a.entry.source, b.entry.source) || compare(a.entry.attempt ?? '', b.entry.attempt ?? '');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
