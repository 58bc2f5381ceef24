import type { ObjectStore } from '../storage/object-store.js';
import { DEFAULT_REGISTRY_PREFIX } from './registry-layout.js';
import { lookAtRegistry, registryLookState, type RegistryProblem } from './registry-look.js';
import type { RegisteredContract, RegistryReadOptions } from './registry-objects.js';

/**
 * Every version in force, one per dataset and major, and the problems of the pointers that are
 * not in force as they stand (each once): read as the gate reads it, by the same rules.
 */
export async function readRegistry(store: ObjectStore, options: RegistryReadOptions = {}): Promise<{ entries: RegisteredContract[]; problems: string[] }> {
  const state = registryLookState();
  const problems: RegistryProblem[] = [];
  await lookAtRegistry(store, state, { ...options, prefix: options.prefix ?? DEFAULT_REGISTRY_PREFIX }, (problem) => void problems.push(problem));
  return { entries: [...state.inForce.values()].map((held) => held.entry), problems: problems.map((p) => p.text) };
}
