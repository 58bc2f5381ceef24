import type { Contract } from '../contract/model.js';

/** The contracts the gate enforces, by dataset name and major version. */
export interface ContractRegistry {
  find(name: string, major: number): Contract | undefined;
  all(): readonly Contract[];
}

export function contractRegistry(contracts: readonly Contract[]): ContractRegistry {
  const byKey = new Map(contracts.map((c) => [`${c.name}/v${c.version.major}`, c]));
  return {
    find: (name, major) => byKey.get(`${name}/v${major}`),
    all: () => contracts,
  };
}
