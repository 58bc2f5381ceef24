import { readFile } from 'node:fs/promises';
import type { Contract } from '../contract/model.js';
import { parseContract, type LoadOptions, type LoadResult } from '../contract/load-contract.js';
import { formatProblem } from '../contract/problems.js';
import { GateError } from '../errors.js';

export async function loadContractFile(path: string, options: LoadOptions = {}): Promise<LoadResult> {
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw new GateError('path_not_found', `${path}: cannot read the contract file`, { cause: error, context: { path } });
  });
  return parseContract(text, path, options);
}

/** Loads a contract the run depends on; any error stops the run with every problem listed. */
export async function requireContract(path: string, warn: (text: string) => void, options: LoadOptions = {}): Promise<Contract> {
  const { contract, problems } = await loadContractFile(path, options);
  const text = problems.map(formatProblem).join('\n');
  if (!contract) throw new GateError('contract_invalid', `${path} is not a valid contract:\n${text}`, { context: { path, problems } });
  if (text) warn(`${text}\n`);
  return contract;
}
