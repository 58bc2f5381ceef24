import type { ColumnReference, Contract } from '../contract/model.js';
import type { ContractRegistry } from '../gate/contract-registry.js';

/**
 * The contract a `references` names: `major` when it says one, else the highest major of the
 * dataset that is not retired (the highest of any, when every one is), so a dimension that
 * moved to v2 is read at v2 without editing every contract that points at it.
 */
export function referencedContract(contracts: ContractRegistry, ref: ColumnReference): Contract | { readonly unavailable: string } {
  if (ref.major !== undefined) {
    return contracts.find(ref.contract, ref.major) ?? { unavailable: `no contract for ${ref.contract} v${ref.major} is known (neither registered in the lake nor given beside the contract)` };
  }
  const majors = contracts.all().filter((c) => c.name === ref.contract).sort((a, b) => b.version.major - a.version.major);
  const chosen = majors.find((c) => c.status !== 'retired') ?? majors[0];
  return chosen ?? { unavailable: `no contract for ${ref.contract} is known (neither registered in the lake nor given beside the contract)` };
}
