import type { GateLayout } from '../gate/gate-layout.js';
import { listPublished, publishedRoot, type DatasetVersion } from '../replay/published-history.js';
import { partitionTime } from '../replay/replay-window.js';
import type { ObjectStore } from '../storage/object-store.js';

/** A partition of one dataset version that has a `_SUCCESS`, placed in time by its path. */
export interface PublishedPartition {
  /** The partition path, e.g. `dt=2026-11-30`. */
  readonly partition: string;
  /** Its `_SUCCESS` key. */
  readonly success: string;
  /** Epoch ms of the template's `{ds}` (and `{hh}`); undefined when the path does not fit the template. */
  readonly time?: number;
}

/** Where a partition stands in the order of a dataset's partitions. */
export type PlacedPartition = Pick<PublishedPartition, 'partition' | 'time'>;

/**
 * Every published partition of a dataset version, oldest first (see comparePartitions). Listing
 * is the only read: no `_SUCCESS` is fetched here, so a caller reads only those it needs.
 */
export async function publishedPartitions(store: ObjectStore, layout: GateLayout, dataset: DatasetVersion, template: string): Promise<PublishedPartition[]> {
  const found = await listPublished(store, layout, dataset);
  return found
    .map((candidate) => ({ partition: candidate.partition, success: candidate.record.key, ...timeOf(template, candidate.partition) }))
    .sort(comparePartitions);
}

export function placePartition(template: string, partition: string): PlacedPartition {
  return { partition, ...timeOf(template, partition) };
}

/**
 * By the partition's time from the template, falling back to key order for equal times and for
 * paths that do not fit the template (which sort before every path that does: the gate never
 * publishes those, so they are the least likely to be the current data). A total order, so
 * "before" and "latest" mean the same thing wherever they are asked.
 */
export function comparePartitions(a: PlacedPartition, b: PlacedPartition): number {
  if (a.time !== b.time) {
    if (a.time === undefined) return -1;
    if (b.time === undefined) return 1;
    return a.time - b.time;
  }
  return a.partition < b.partition ? -1 : a.partition > b.partition ? 1 : 0;
}

/** For messages: `s3://lake/published/orders/v1/`. */
export function publishedLocation(store: ObjectStore, layout: GateLayout, dataset: DatasetVersion): string {
  return `${store.location}/${publishedRoot(layout, dataset)}`;
}

function timeOf(template: string, partition: string): { time?: number } {
  const time = partitionTime(template, partition);
  return time === undefined ? {} : { time };
}
