import type { Contract } from '../contract/model.js';

/** The contracts the gate enforces, by dataset name and major version: one consistent set. */
export interface ContractRegistry {
  find(name: string, major: number): Contract | undefined;
  all(): readonly Contract[];
}

/** The dataset and major version a drop names. */
export interface ContractNeed {
  readonly dataset: string;
  readonly major: number;
}

/**
 * Where the gate gets its contracts, asked once per drop or probe run: a fixed set (files
 * bundled with the function) or the registry on the bucket, which may have changed since.
 * `need` names the contract the drop asks for: a source that lacks it looks again at once.
 */
export interface ContractSource {
  current(need?: ContractNeed): Promise<ContractRegistry>;
}

/** A fixed set of contracts, which is also a source that never changes. */
export function contractRegistry(contracts: readonly Contract[]): ContractRegistry & ContractSource {
  const byKey = new Map(contracts.map((c) => [`${c.name}/v${c.version.major}`, c]));
  const registry: ContractRegistry & ContractSource = {
    find: (name, major) => byKey.get(`${name}/v${major}`),
    all: () => contracts,
    current: async () => registry,
  };
  return registry;
}
