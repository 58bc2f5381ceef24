import { contractRegistry, type ContractNeed, type ContractRegistry, type ContractSource } from '../gate/contract-registry.js';
import { describeError } from '../errors.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { RegistryReadOptions } from './registry-objects.js';
import { DEFAULT_REGISTRY_PREFIX } from './registry-layout.js';
import { lookAtRegistry, registryLookState, type RegistryProblem } from './registry-look.js';

export type { RegistryProblem } from './registry-look.js';

export interface RegistrySourceOptions extends RegistryReadOptions {
  /** How long a look at the registry stays good; 0 looks on every drop. @default 10_000 */
  readonly refreshMs?: number;
  readonly clock?: () => number;
  /** Told about a registered contract that is not in force (the last good one stays), once per pointer ETag. */
  readonly warn?: (text: string) => void;
  /** Pages the owner about it (see registryPager), after `warn`; a failure to page is warned, not thrown. */
  readonly page?: (problem: RegistryProblem) => Promise<void>;
}

/**
 * The contracts in force on the bucket's registry, cached. A look lists the pointers (one LIST)
 * and judges only those whose ETag changed (see lookAtRegistry), at most every `refreshMs`, and
 * at once when a drop names a contract the cache lacks, so a newly registered contract is
 * enforced on its first drop. A pointer that is not in force is remembered by its ETag as a good
 * one is: reported once, and not read again on every look.
 */
export function registryContracts(store: ObjectStore, options: RegistrySourceOptions = {}): ContractSource & { refresh(): Promise<ContractRegistry> } {
  const prefix = options.prefix ?? DEFAULT_REGISTRY_PREFIX;
  const refreshMs = options.refreshMs ?? 10_000;
  const clock = options.clock ?? Date.now;
  const state = registryLookState();
  let registry: ContractRegistry = contractRegistry([]);
  let lookedAt = -Infinity;
  let looking: Promise<ContractRegistry> | undefined;

  const report = async (problem: RegistryProblem) => {
    options.warn?.(`contract registry: ${problem.text}`);
    await options.page?.(problem).catch((error: unknown) => options.warn?.(`contract registry: could not page about ${store.location}/${problem.key}: ${describeError(error)}`));
  };
  const look = async (): Promise<ContractRegistry> => {
    const started = clock();
    await lookAtRegistry(store, state, { prefix, ...(options.loadOptions ? { loadOptions: options.loadOptions } : {}) }, report);
    registry = contractRegistry([...state.inForce.values()].map((held) => held.entry.contract));
    lookedAt = started;
    return registry;
  };
  // One look at a time: concurrent drops share it rather than list the registry each.
  const refresh = () => (looking ??= look().finally(() => (looking = undefined)));
  return {
    refresh,
    async current(need?: ContractNeed) {
      const stale = clock() - lookedAt >= refreshMs;
      const missing = need !== undefined && registry.find(need.dataset, need.major) === undefined;
      return stale || missing ? refresh() : registry;
    },
  };
}
