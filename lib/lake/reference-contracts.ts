import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadOptions } from '../contract/contract-defaults.js';
import { parseContract } from '../contract/load-contract.js';
import type { Contract } from '../contract/model.js';
import { formatProblem } from '../contract/problems.js';
import { contractRegistry, type ContractRegistry } from '../gate/contract-registry.js';
import { lookAtRegistry, registryLookState } from '../registry/registry-look.js';
import type { ObjectStore } from '../storage/object-store.js';
import { sha256Hex } from '../storage/content-hash.js';

export interface ReferenceContractSources {
  /** The lake's registry prefix, e.g. `_contracts/`. */
  readonly registryPrefix: string;
  /** Where to look for `<name>.v<major>.yaml` when the registry holds no version of a dataset. */
  readonly dir: string;
  readonly loadOptions?: LoadOptions;
  /** Told of a registered or local contract that does not load (it is then not known). */
  readonly warn: (text: string) => void;
}

/**
 * The contracts the `references` of `contract` name, every major of each: from the lake's
 * registry, which is what the gate enforces, or, for a dataset the registry holds no version
 * of, from the files beside the contract. Only the referenced datasets are read.
 */
export async function referenceContracts(store: ObjectStore, contract: Contract, sources: ReferenceContractSources): Promise<ContractRegistry> {
  const names = [...new Set(contract.schema.columns.flatMap((c) => (c.references ? [c.references.contract] : [])))];
  const found: Contract[] = [];
  for (const name of names) {
    const registered = await registeredContracts(store, name, sources);
    found.push(...(registered.length > 0 ? registered : await localContracts(name, sources)));
  }
  return contractRegistry(found);
}

/** The dataset's versions in force on the registry, judged as the gate judges them. */
async function registeredContracts(store: ObjectStore, name: string, sources: ReferenceContractSources): Promise<Contract[]> {
  const state = registryLookState();
  const options = { prefix: sources.registryPrefix, name, ...(sources.loadOptions ? { loadOptions: sources.loadOptions } : {}) };
  await lookAtRegistry(store, state, options, (problem) => sources.warn(`contract registry: ${problem.text}\n`));
  return [...state.inForce.values()].map((held) => held.entry.contract);
}

/** `<dir>/<name>.v<major>.yaml` (or `.yml`): the naming `publish` and the gate's bundle use. */
async function localContracts(name: string, sources: ReferenceContractSources): Promise<Contract[]> {
  const files = await readdir(sources.dir).catch(() => [] as string[]);
  const contracts: Contract[] = [];
  for (const file of files.sort()) {
    const major = new RegExp(`^${escapeRegExp(name)}\\.v(\\d+)\\.ya?ml$`).exec(file)?.[1];
    if (major === undefined) continue;
    const path = join(sources.dir, file);
    const text = await readFile(path, 'utf8');
    const { contract, problems } = parseContract(text, path, sources.loadOptions);
    if (!contract) sources.warn(`${path} does not load, so ${name} v${major} is not known:\n${problems.filter((p) => p.severity === 'error').map(formatProblem).join('\n')}\n`);
    else if (contract.name !== name || contract.version.major !== Number(major)) sources.warn(`${path} declares ${contract.name} ${contract.version.text}, not ${name} v${major}: it is left out\n`);
    else contracts.push({ ...contract, origin: { location: path, sha256: sha256Hex(text) } });
  }
  return contracts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
