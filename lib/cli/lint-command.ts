import { parseArgs } from 'node:util';
import { formatProblem } from '../contract/problems.js';
import { GateError } from '../errors.js';
import { formatAnnotation, problemAnnotation } from '../report/github-annotations.js';
import { EXIT, type CliIo } from './cli-io.js';
import { loadContractFile } from './contract-file.js';
import { loadOptionsFrom } from './load-options.js';
import { COMMAND_HELP, LINT_USAGE } from './usage.js';

/** `lint`: checks contract files alone and lists every problem in each. */
export async function lintCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.lint.options });
  if (positionals.length === 0) throw new GateError('bad_arguments', `name at least one contract file\nusage: ${LINT_USAGE}`);
  if (values.format !== 'text' && values.format !== 'github') throw new GateError('bad_arguments', `--format must be text or github, not "${values.format}"`);
  const github = values.format === 'github';
  const options = loadOptionsFrom(values);
  let failed = false;
  for (const path of positionals) {
    const { contract, problems } = await loadContractFile(path, options);
    // As annotations, problems are the output; as text they are diagnostics beside the verdicts.
    for (const problem of problems) {
      if (github) io.stdout(`${formatAnnotation(problemAnnotation(problem))}\n`);
      else io.stderr(`${formatProblem(problem)}\n`);
    }
    if (contract && !github) io.stdout(`ok ${path}: ${contract.name} ${contract.version.text}${problems.length ? ` (${problems.length} warnings)` : ''}\n`);
    failed ||= !contract;
  }
  return failed ? EXIT.cannotProceed : EXIT.ok;
}
