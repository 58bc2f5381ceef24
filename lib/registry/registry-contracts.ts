import type { Contract } from '../contract/model.js';
import { contractRegistry, type ContractNeed, type ContractRegistry, type ContractSource } from '../gate/contract-registry.js';
import type { ObjectStore } from '../storage/object-store.js';
import { loadRegistered, pointerListing, readPointer, type RegistryReadOptions } from './read-registry.js';
import { DEFAULT_REGISTRY_PREFIX } from './registry-layout.js';

export interface RegistrySourceOptions extends RegistryReadOptions {
  /** How long a look at the registry stays good; 0 looks on every drop. @default 10_000 */
  readonly refreshMs?: number;
  readonly clock?: () => number;
  /** Told about a registered contract that does not load (the last good one stays in force). */
  readonly warn?: (text: string) => void;
}

interface Cached {
  readonly etag: string;
  readonly contract: Contract;
}

/**
 * The contracts in force on the bucket's registry, cached. A look lists the pointers (one LIST)
 * and reads only those whose ETag changed, at most every `refreshMs`, and at once when a drop
 * names a contract the cache lacks, so a newly registered contract is enforced on its first drop.
 * A registered file that does not load leaves the last good version in force and is reported.
 */
export function registryContracts(store: ObjectStore, options: RegistrySourceOptions = {}): ContractSource & { refresh(): Promise<ContractRegistry> } {
  const prefix = options.prefix ?? DEFAULT_REGISTRY_PREFIX;
  const refreshMs = options.refreshMs ?? 10_000;
  const clock = options.clock ?? Date.now;
  const cache = new Map<string, Cached>();
  // The pointer ETags already reported as not loading: told once, not on every look.
  const reported = new Set<string>();
  let registry: ContractRegistry = contractRegistry([]);
  let lookedAt = -Infinity;
  let looking: Promise<ContractRegistry> | undefined;

  const look = async (): Promise<ContractRegistry> => {
    const started = clock();
    const listed = await pointerListing(store, prefix);
    for (const key of [...cache.keys()]) if (!listed.some((p) => p.key === key)) cache.delete(key);
    for (const { key, etag } of listed) {
      if (cache.get(key)?.etag === etag) continue;
      const [name, major] = key.slice(prefix.length).split('/');
      const read = await readPointer(store, prefix, name!, Number(major!.slice(1)));
      const loaded = read && (await loadRegistered(store, read, options));
      if (loaded && 'contract' in loaded) cache.set(key, { etag: loaded.pointerEtag, contract: loaded.contract });
      else if (loaded && !reported.has(etag)) {
        reported.add(etag);
        options.warn?.(`contract registry: ${loaded.problem}`);
      }
    }
    registry = contractRegistry([...cache.values()].map((c) => c.contract));
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
