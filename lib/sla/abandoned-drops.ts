import type { Contract } from '../contract/model.js';
import { isoSeconds } from '../contract/temporal.js';
import type { GateLayout } from '../gate/gate-layout.js';
import type { Notice } from '../notify/notifier.js';
import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';

/** Staged files of one partition with no marker, untouched for longer than the probe allows. */
export interface AbandonedDrop {
  readonly partition: string;
  readonly files: number;
  readonly bytes: number;
  /** When the newest of them was written (epoch ms): a new file makes it a new abandoned drop. */
  readonly newest: number;
  readonly sample: readonly string[];
}

/**
 * A producer job that died between its data files and its `_READY` leaves bytes in staging that
 * the gate never hears of: no marker, no event, no verdict. Listed per partition of the
 * contract's template depth; a partition with a marker is the gate's, not abandoned.
 */
export async function abandonedDrops(store: ObjectStore, layout: GateLayout, contract: Contract, now: number, afterMs: number): Promise<AbandonedDrop[]> {
  const prefix = `${layout.staging}${contract.name}/v${contract.version.major}/`;
  const depth = contract.produces.partition.split('/').length;
  const byPartition = new Map<string, ObjectInfo[]>();
  for await (const object of store.list(prefix)) {
    const segments = object.key.slice(prefix.length).split('/');
    if (segments.length <= depth) continue;
    const partition = segments.slice(0, depth).join('/');
    byPartition.set(partition, [...(byPartition.get(partition) ?? []), object]);
  }
  const found: AbandonedDrop[] = [];
  for (const [partition, objects] of byPartition) {
    if (objects.some((o) => o.key === `${prefix}${partition}/${layout.marker}`)) continue;
    const newest = Math.max(...objects.map((o) => o.lastModified.getTime()));
    if (now - newest < afterMs) continue;
    found.push({ partition, files: objects.length, bytes: objects.reduce((sum, o) => sum + o.size, 0), newest, sample: objects.slice(0, 3).map((o) => o.key) });
  }
  return found;
}

/** One claim per abandoned drop: its partition and the time of its newest file. */
export function abandonedClaim(layout: GateLayout, contract: Contract, drop: AbandonedDrop): string {
  return `${layout.state}abandoned/${contract.name}/v${contract.version.major}/${drop.partition}/${drop.newest}.json`;
}

export function abandonedNotice(contract: Contract, drop: AbandonedDrop, layout: GateLayout, now: number, location: string): Notice {
  const dataset = `${contract.name} v${contract.version.major}`;
  const hours = Math.floor((now - drop.newest) / 3_600_000);
  const lines = [
    `Dataset:   ${dataset} (contract ${contract.version.text}, owner ${contract.owner.team})`,
    `Partition: ${drop.partition}`,
    `State:     ${drop.files} staged file(s), ${drop.bytes} bytes, the newest written ${isoSeconds(drop.newest)}, and no ${layout.marker}: the gate has not judged them`,
    `Files:     ${drop.sample.join(', ')}${drop.files > drop.sample.length ? ', ...' : ''}`,
    `To do:     finish the drop (write ${layout.marker}, e.g. contract-gate drop), or delete the files`,
    `Bucket:    ${location}`,
  ];
  return {
    subject: `[contract-gate] ${dataset} ${drop.partition} ABANDONED in staging: no ${layout.marker} for ${hours} h`,
    body: `${lines.join('\n')}\n`,
    attributes: { contract: contract.name, version: `v${contract.version.major}`, owner: contract.owner.team, outcome: 'abandoned', severity: 'warning', partition: drop.partition },
  };
}
