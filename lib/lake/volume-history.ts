import type { VolumeHistory } from '../checks/plan-facts.js';
import type { Contract } from '../contract/model.js';
import { matchPartition } from '../contract/partition-template.js';
import type { GateLayout } from '../gate/gate-layout.js';
import type { ObjectStore } from '../storage/object-store.js';
import { comparePartitions, placePartition, publishedLocation, publishedPartitions, type PublishedPartition } from './published-partitions.js';
import { isProblem, publishedRows, readSuccessManifest } from '../gate/success-record.js';

/**
 * The published history `sla.volume_vs_history` compares a partition with: the row counts of
 * the last `lookback` partitions of the same major published before it, newest first. Left
 * out: the partition itself (a backfill is not its own history), partitions dated in the SLA's
 * `skip_dates` (a holiday's small load says nothing of a normal day), and `_SUCCESS` files that
 * are no manifest the gate writes. Undefined when the contract has no such rule: nothing is read.
 * Only the manifests needed are fetched, newest first, after one listing.
 */
export async function readVolumeHistory(store: ObjectStore, layout: GateLayout, contract: Contract, partition: string): Promise<VolumeHistory | undefined> {
  const rule = contract.sla?.volumeVsHistory;
  if (!rule) return undefined;
  const dataset = { dataset: contract.name, major: contract.version.major };
  const template = contract.produces.partition;
  const checked = placePartition(template, partition);
  const skipped = new Set(contract.sla?.skipDates ?? []);
  const earlier = (await publishedPartitions(store, layout, dataset, template))
    .filter((p) => comparePartitions(p, checked) < 0 && !isSkipDate(template, p.partition, skipped))
    .reverse();
  return { partitions: await rowCounts(store, earlier, rule.lookback), source: publishedLocation(store, layout, dataset) };
}

async function rowCounts(store: ObjectStore, newestFirst: readonly PublishedPartition[], lookback: number): Promise<{ partition: string; rows: number }[]> {
  const counts: { partition: string; rows: number }[] = [];
  for (const candidate of newestFirst) {
    if (counts.length >= lookback) break;
    const manifest = await readSuccessManifest(store, candidate.success);
    // Gone since the listing (a backfill under way), or not the gate's: no count to trust.
    if (manifest === undefined || isProblem(manifest)) continue;
    const rows = publishedRows(manifest);
    if (!isProblem(rows)) counts.push({ partition: candidate.partition, rows });
  }
  return counts;
}

function isSkipDate(template: string, partition: string, skipped: ReadonlySet<string>): boolean {
  const ds = matchPartition(template, partition)?.ds;
  return ds !== undefined && skipped.has(ds);
}
