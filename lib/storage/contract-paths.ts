import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isContractFileName } from '../compat/check-contract-files.js';
import { GateError } from '../errors.js';
import type { ContractFileToRegister } from '../registry/register-contract.js';

/**
 * The contract files named on a command line: files as given, directories by the `*.yaml` /
 * `*.yml` directly in them (not `examples/` or the JSON Schema). Ordered by name with numbers
 * compared as numbers, so `orders.v2.yaml` is registered after `orders.v1.yaml` and before v10.
 */
export async function readContractPaths(paths: readonly string[]): Promise<ContractFileToRegister[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch((error: unknown) => {
      throw new GateError('path_not_found', `${path}: no such contract file or directory`, { cause: error, context: { path } });
    });
    if (!info.isDirectory()) files.push(path);
    else files.push(...(await readdir(path)).filter(isContractFileName).map((name) => join(path, name)));
  }
  if (files.length === 0) throw new GateError('bad_arguments', `${paths.join(', ')} holds no contract files (*.yaml, *.yml)`);
  const unique = [...new Set(files)].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return Promise.all(unique.map(async (path) => ({ path, text: await readFile(path, 'utf8') })));
}
