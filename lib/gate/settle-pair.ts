import type { ObjectInfo } from '../storage/object-store.js';
import { carryOut } from './carry-out.js';
import { pageMisplaced } from './checked-record.js';
import { decideDrop } from './decide-drop.js';
import type { Decision } from './decision.js';
import { describeAddress, siblingAddress, markerLink, windowClosed, type DropLink } from './drop-link.js';
import { finishEarlier } from './finish-earlier.js';
import { datasetPath, markerKey, type DropAddress, type GateLayout } from './gate-layout.js';
import { createPair, orderSides, pairDecision, pairKeyOf, readPair, recordSides } from './linked-pair.js';
import { leaseKey, withPartitionLease, type LeaseSettings } from './partition-lease.js';
import type { GateDeps } from './gate-deps.js';
import { dropTag } from './read-drop.js';
import { decisionKeyOf, readRecorded } from './recorded-decision.js';

type PairDeps = GateDeps & { readonly layout: GateLayout; readonly lease: LeaseSettings };

export interface Side {
  readonly address: DropAddress;
  readonly marker: ObjectInfo;
  readonly key: string;
}

/** Whether a drop naming a sibling is settled with it: until the older major's sunset; after it, alone with a note saying so. */
export async function linkedWindow(deps: GateDeps, address: DropAddress, link: DropLink): Promise<{ readonly open: boolean; readonly note?: string }> {
  const contracts = await deps.contracts.current({ dataset: address.dataset, major: Math.min(address.major, link.major) });
  const note = windowClosed(contracts, address, link, deps.clock());
  return note === undefined ? { open: true } : { open: false, note };
}

/** What became of one side: its decision as carried out, or why it waits for its sibling. */
export type PairOutcome = { readonly decision: Decision } | { readonly waiting: string };

/**
 * One side of a linked drop. Holding both partitions' leases (taken in the pair's fixed order,
 * so two handlers never deadlock): finish what earlier drops of either partition left undone;
 * a decision already recorded for this side wins; otherwise, once the sibling's marker is there
 * and names this drop back, both are judged and ONE pair record is created (conditional create),
 * both sides' decisions are made from it, and both are carried out. Until the sibling arrives
 * this side waits in staging: nothing of it is published, and the SLA probe sees it as missing.
 */
export async function settlePair(deps: PairDeps, mine: Side, link: DropLink): Promise<PairOutcome> {
  const sibling = siblingAddress(mine.address, link);
  const [first, second] = orderSides({ address: mine.address, tag: '' }, { address: sibling, tag: '' });
  const hold = <T>(address: DropAddress, work: () => Promise<T>) => withPartitionLease(deps.store, leaseKey(deps.layout, address), deps.lease, deps.clock, work);
  return hold(first.address, () => hold(second.address, () => settleHeld(deps, mine, sibling)));
}

async function settleHeld(deps: PairDeps, mine: Side, sibling: DropAddress): Promise<PairOutcome> {
  const tag = dropTag(mine.marker);
  const key = decisionKeyOf(deps.layout, mine.address, tag);
  const { earlier } = await finishEarlier(deps, mine.address, key);
  // Also finishes the sibling's side of this pair when a handler died after recording it.
  const { earlier: theirEarlier } = await finishEarlier(deps, sibling, '');
  const recorded = await readRecorded(deps.store, key, pageMisplaced(deps));
  if (recorded) return { decision: await carryOut(deps, recorded) };
  const theirs = await deps.store.head(markerKey(deps.layout, sibling));
  const waiting = (why: string) => ({ waiting: `${why}: nothing of this linked drop is published until both sides are dropped` });
  if (!theirs) return waiting(`its linked sibling ${describeAddress(sibling)} has no marker yet`);
  const named = await markerLink(deps.store, deps.layout, sibling, theirs);
  if (named && 'unread' in named) throw named.unread; // changed under the lease, or a conflict: retried
  if (!named || datasetPath(siblingAddress(sibling, named)) !== datasetPath(mine.address)) return waiting(`the marker of ${describeAddress(sibling)} does not name this drop as its linked sibling`);
  const pairKey = pairKeyOf(deps.layout, { address: mine.address, tag }, { address: sibling, tag: dropTag(theirs) });
  const decideBoth = async () => {
    const a = await decideSide(deps, mine.address, mine.marker, earlier);
    const b = await decideSide(deps, sibling, theirs, theirEarlier);
    return pairDecision(pairKey, a, b, new Date(deps.clock()).toISOString());
  };
  const pair = (await readPair(deps.store, pairKey)) ?? (await createPair(deps.store, pairKey, await decideBoth()));
  const sides = await recordSides(deps.store, deps.layout, pair);
  const done: Decision[] = [];
  for (const side of sides) done.push(await carryOut(deps, side));
  return { decision: done.find((d) => datasetPath(d.address) === datasetPath(mine.address)) ?? done[0]! };
}

/** A side judged in this handler: a linked drop is not handed to the fan-out, whose run would settle one side alone. */
async function decideSide(deps: PairDeps, address: DropAddress, marker: ObjectInfo, earlier: readonly Decision[]): Promise<Decision> {
  const { decider: _decider, ...inThread } = deps;
  return (await decideDrop(inThread, address, marker, earlier, {}))!;
}
