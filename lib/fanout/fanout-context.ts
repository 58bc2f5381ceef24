import { buildCheckPlan, type CheckPlan } from '../checks/check-plan.js';
import { keySetsFor, type KeyColumns } from '../checks/partition-state.js';
import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import type { ContractSource } from '../gate/contract-registry.js';
import type { GateLayout } from '../gate/gate-layout.js';
import { decisionKeyOf } from '../gate/process-marker.js';
import type { ObjectStore } from '../storage/object-store.js';
import { fanoutKeys, type FanoutRun } from './fanout-layout.js';

/** What every step of a run needs: the bucket, the contracts it ships with, the layout. */
export interface FanoutDeps {
  readonly store: ObjectStore;
  readonly contracts: ContractSource;
  readonly layout: GateLayout;
}

export interface RunContext {
  readonly contract: Contract;
  readonly plan: CheckPlan;
  /** The key sets in the order every step numbers them (grain first, then unique columns). */
  readonly keySets: readonly KeyColumns[];
  readonly keys: ReturnType<typeof fanoutKeys>;
}

/** Rebuilds the run's check plan; each step gets the same one from the same run. */
export async function runContext(deps: FanoutDeps, run: FanoutRun): Promise<RunContext> {
  const { dataset, major } = run.address;
  const contract = (await deps.contracts.current({ dataset, major })).find(dataset, major);
  if (!contract) throw new GateError('contract_invalid', `the fan-out of ${dataset} v${major} ${run.address.partition} found no contract for it: was it removed mid-run?`);
  if (contract.version.text !== run.contractVersion) {
    throw new GateError('contract_invalid', `${dataset} v${major} is at ${contract.version.text} but the run was requested under ${run.contractVersion}; one report must not mix two versions of the rules`);
  }
  const plan = buildCheckPlan(contract, run.now, { partition: run.address.partition });
  return { contract, plan, keySets: keySetsFor(plan), keys: fanoutKeys(deps.layout, run) };
}

/**
 * Whether the drop is decided already: a late or repeated step then does nothing, because the
 * staged files it would read may have moved.
 */
export async function isDecided(deps: FanoutDeps, run: FanoutRun): Promise<boolean> {
  return (await deps.store.head(decisionKeyOf(deps.layout, run.address, run.tag))) !== undefined;
}
