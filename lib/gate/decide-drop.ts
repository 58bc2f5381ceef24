import { GateError } from '../errors.js';
import { readPlanFacts } from '../lake/plan-facts.js';
import type { ObjectInfo } from '../storage/object-store.js';
import { decide, type DecideContext, type FactsReader } from './decide.js';
import type { Decision } from './decision.js';
import { usableLink } from './drop-link.js';
import type { DropAddress, GateLayout } from './gate-layout.js';
import { changedFiles, isChangeError } from './pinned-copy.js';
import type { GateDeps } from './gate-deps.js';
import { dropTag, readDrop, type Drop } from './read-drop.js';
import { repeatOf } from './repeat-marker.js';
import { supersededDrop } from './superseded.js';

/** The verdict on a drop as it is now; a file that changes under the reading makes it superseded. `alone`: why it is judged alone, if it names a sibling. */
export async function decideDrop(deps: GateDeps & { layout: GateLayout }, address: DropAddress, marker: ObjectInfo, earlier: readonly Decision[], alone: AloneOptions): Promise<Decision | undefined> {
  const decision = await decideAsIs(deps, address, marker, earlier, alone);
  return alone.note === undefined || decision === undefined ? decision : noted(decision, alone.note);
}

/** How a drop came to be judged alone: `note`, the linked window closed; `unread`, its marker could not be read to tell (the error). */
export interface AloneOptions {
  readonly note?: string;
  readonly unread?: unknown;
}

/**
 * A marker whose first read failed was routed to the single-drop path without knowing whether it
 * names a sibling. Read under the lease it does: it is not decided alone (that would publish one
 * side of a linked drop); the delivery fails, is retried, and settles the pair.
 */
function refuseUnreadLink(deps: { layout: GateLayout }, drop: Drop, alone: AloneOptions): void {
  if (alone.unread === undefined || !usableLink(deps.layout, drop.address, new TextDecoder().decode(drop.markerBody))) return;
  throw new GateError('precondition_failed', `${drop.marker.key} names a linked sibling, but could not be read before its lease was taken; the delivery is retried and settles the pair`, { cause: alone.unread });
}

/** A warning the gate adds to a decision (a linked drop judged alone): in the report, its summary and the notice. */
function noted(decision: Decision, note: string): Decision {
  const { report } = decision;
  return { ...decision, report: { ...report, warnings: [...report.warnings, note], summary: `${report.summary}; ${note}` } };
}

async function decideAsIs(deps: GateDeps & { layout: GateLayout }, address: DropAddress, marker: ObjectInfo, earlier: readonly Decision[], alone: AloneOptions): Promise<Decision | undefined> {
  const contracts = await deps.contracts.current({ dataset: address.dataset, major: address.major });
  const facts: FactsReader = (contract, drop) => readPlanFacts({ store: deps.store, layout: deps.layout }, contracts, contract, drop.address.partition);
  const context: DecideContext = { store: deps.store, contracts, now: deps.clock(), facts, ...(deps.checks ? { checks: deps.checks } : {}) };
  let drop: Drop | undefined;
  try {
    drop = await readDrop(deps.store, deps.layout, address, marker);
    refuseUnreadLink(deps, drop, alone);
    return repeatOf(drop, earlier, context) ?? (await (deps.decider ?? decide)(context, drop));
  } catch (error) {
    if (!isChangeError(error)) throw error;
    const listed = drop ?? { address, marker, tag: dropTag(marker), files: [], markerBody: new Uint8Array() };
    const changed = await changedFiles(deps.store, [marker, ...listed.files]);
    if (changed.length === 0) throw error;
    return supersededDrop({ location: deps.store.location, contracts, now: context.now }, listed, changed);
  }
}
