import { readPlanFacts } from '../lake/plan-facts.js';
import type { ObjectInfo } from '../storage/object-store.js';
import { decide, type DecideContext, type FactsReader } from './decide.js';
import type { Decision } from './decision.js';
import type { DropAddress, GateLayout } from './gate-layout.js';
import { changedFiles, isChangeError } from './pinned-copy.js';
import type { GateDeps } from './process-marker.js';
import { dropTag, readDrop, type Drop } from './read-drop.js';
import { repeatOf } from './repeat-marker.js';
import { supersededDrop } from './superseded.js';

/** The verdict on a drop as it is now; a file that changes under the reading makes it superseded. `note` is a warning it carries. */
export async function decideDrop(deps: GateDeps & { layout: GateLayout }, address: DropAddress, marker: ObjectInfo, earlier: readonly Decision[], note?: string): Promise<Decision | undefined> {
  const decision = await decideAsIs(deps, address, marker, earlier);
  return note === undefined || decision === undefined ? decision : noted(decision, note);
}

/** A warning the gate adds to a decision (a linked drop judged alone): in the report, its summary and the notice. */
function noted(decision: Decision, note: string): Decision {
  const { report } = decision;
  return { ...decision, report: { ...report, warnings: [...report.warnings, note], summary: `${report.summary}; ${note}` } };
}

async function decideAsIs(deps: GateDeps & { layout: GateLayout }, address: DropAddress, marker: ObjectInfo, earlier: readonly Decision[]): Promise<Decision | undefined> {
  const contracts = await deps.contracts.current({ dataset: address.dataset, major: address.major });
  const facts: FactsReader = (contract, drop) => readPlanFacts({ store: deps.store, layout: deps.layout }, contracts, contract, drop.address.partition);
  const context: DecideContext = { store: deps.store, contracts, now: deps.clock(), facts, ...(deps.checks ? { checks: deps.checks } : {}) };
  let drop: Drop | undefined;
  try {
    drop = await readDrop(deps.store, deps.layout, address, marker);
    return repeatOf(drop, earlier, context) ?? (await (deps.decider ?? decide)(context, drop));
  } catch (error) {
    if (!isChangeError(error)) throw error;
    const listed = drop ?? { address, marker, tag: dropTag(marker), files: [], markerBody: new Uint8Array() };
    const changed = await changedFiles(deps.store, [marker, ...listed.files]);
    if (changed.length === 0) throw error;
    return supersededDrop({ location: deps.store.location, contracts, now: context.now }, listed, changed);
  }
}
