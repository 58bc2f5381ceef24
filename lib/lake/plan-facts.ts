import { MAX_REFERENCE_KEYS, type PlanFacts, type ReferenceKeys } from '../checks/plan-facts.js';
import type { ColumnReference, Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import type { ContractRegistry } from '../gate/contract-registry.js';
import type { GateLayout } from '../gate/gate-layout.js';
import type { ObjectStore } from '../storage/object-store.js';
import { readReferenceKeys } from './reference-keys.js';
import { readVolumeHistory } from './volume-history.js';

export interface Lake {
  readonly store: ObjectStore;
  readonly layout: GateLayout;
}

/** Whether a contract has rules that compare with published data: else no lake need be opened. */
export function needsLake(contract: Contract): boolean {
  return contract.sla?.volumeVsHistory !== undefined || contract.schema.columns.some((c) => c.references !== undefined);
}

/**
 * What the checks of `contract` need from the lake, read before they run: the published
 * history when it has `sla.volume_vs_history` (then `partition`, the one being checked, must be
 * known), the referenced keys per column with `references`. Reads nothing for a rule the
 * contract lacks; columns naming the same referenced column share one read.
 */
export async function readPlanFacts(lake: Lake, contracts: ContractRegistry, contract: Contract, partition: string | undefined, limit = MAX_REFERENCE_KEYS): Promise<PlanFacts> {
  const history = contract.sla?.volumeVsHistory ? await readVolumeHistory(lake.store, lake.layout, contract, requirePartition(contract, partition)) : undefined;
  const reads = new Map<string, Promise<ReferenceKeys>>();
  const references = new Map<string, ReferenceKeys>();
  for (const column of contract.schema.columns) {
    const ref = column.references;
    if (!ref) continue;
    const id = referenceId(ref);
    if (!reads.has(id)) reads.set(id, readReferenceKeys(lake.store, lake.layout, contracts, ref, limit));
    references.set(column.name, await reads.get(id)!);
  }
  return { ...(history ? { history } : {}), ...(references.size > 0 ? { references } : {}) };
}

function requirePartition(contract: Contract, partition: string | undefined): string {
  if (partition !== undefined) return partition;
  throw new GateError('bad_arguments', `${contract.name} has sla.volume_vs_history: its history can only be read knowing the partition being checked (e.g. ${contract.produces.partition})`);
}

function referenceId(ref: ColumnReference): string {
  return JSON.stringify([ref.contract, ref.major ?? null, ref.partition ?? null, ref.column]);
}
