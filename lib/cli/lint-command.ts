import { formatProblem } from '../contract/problems.js';
import { GateError } from '../errors.js';
import { EXIT, type CliIo } from './cli-io.js';
import { loadContractFile } from './contract-file.js';

/** `lint`: checks contract files alone and lists every problem in each. */
export async function lintCommand(args: string[], io: CliIo): Promise<number> {
  if (args.length === 0) throw new GateError('bad_arguments', 'usage: contract-gate lint <contract>...');
  let failed = false;
  for (const path of args) {
    const { contract, problems } = await loadContractFile(path);
    for (const problem of problems) io.stderr(`${formatProblem(problem)}\n`);
    if (contract) io.stdout(`ok ${path}: ${contract.name} ${contract.version.text}${problems.length ? ` (${problems.length} warnings)` : ''}\n`);
    else failed = true;
  }
  return failed ? EXIT.cannotProceed : EXIT.ok;
}
