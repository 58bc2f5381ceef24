import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseContract, type LoadOptions } from '../contract/load-contract.js';
import type { Contract } from '../contract/model.js';
import { formatProblem } from '../contract/problems.js';
import { GateError } from '../errors.js';
import { contractRegistry, type ContractRegistry, type ContractSource } from '../gate/contract-registry.js';
import { sha256Hex } from './content-hash.js';

/**
 * Loads every `*.yaml` / `*.yml` contract directly in a directory. One invalid contract stops the
 * load: a gate that silently skipped it would quarantine that dataset's every drop as unknown.
 * `options.defaults` fill what a contract leaves out (see contract-defaults.ts); their warnings go
 * to `options.warn` when given.
 */
export async function loadContractDirectory(dir: string, options: LoadOptions & { readonly warn?: (text: string) => void } = {}): Promise<ContractRegistry & ContractSource> {
  const names = await readdir(dir).catch((error: unknown) => {
    throw new GateError('path_not_found', `${dir}: cannot read the contracts directory`, { cause: error, context: { dir } });
  });
  const contracts: Contract[] = [];
  const problems: string[] = [];
  for (const name of names.filter((n) => /\.ya?ml$/.test(n)).sort()) {
    const path = join(dir, name);
    const text = await readFile(path, 'utf8');
    const result = parseContract(text, path, options);
    if (result.contract) contracts.push({ ...result.contract, origin: { location: path, sha256: sha256Hex(text) } });
    const warnings = result.problems.filter((p) => p.severity === 'warning');
    if (options.warn && warnings.length > 0) options.warn(`${warnings.map(formatProblem).join('\n')}\n`);
    problems.push(...result.problems.filter((p) => p.severity === 'error').map(formatProblem));
  }
  if (problems.length > 0) throw new GateError('contract_invalid', `invalid contracts in ${dir}:\n${problems.join('\n')}`, { context: { dir } });
  const duplicate = contracts.find((c, i) => contracts.findIndex((o) => o.name === c.name && o.version.major === c.version.major) !== i);
  if (duplicate) throw new GateError('contract_invalid', `${dir} holds two contracts for ${duplicate.name} v${duplicate.version.major}`, { context: { dir } });
  return contractRegistry(contracts);
}
