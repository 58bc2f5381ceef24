import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { NAME } from '../contract/native-contract.js';
import { GateError } from '../errors.js';
import { choiceLines } from '../infer/choice.js';
import { inferFromSamples } from '../infer/infer-from-samples.js';
import { guessDataset, guessPartition } from '../infer/partition-naming.js';
import type { ProposedContract } from '../infer/proposal.js';
import { DEFAULT_ENUM_MAX } from '../infer/propose-contract.js';
import { sampleFormat } from '../infer/read-samples.js';
import { sniffDialect } from '../infer/sniff-dialect.js';
import { samplePartitions, type SamplePartition } from '../infer/sample-partitions.js';
import { EXIT, type CliIo } from './cli-io.js';
import { COMMAND_HELP } from './usage.js';

/**
 * `infer`: proposes a contract from sample partitions, one that lints and passes every one of
 * them, with comments saying what each rule was inferred from. Prints it, or writes it to
 * `--out DIR/<name>.v<major>.yaml`, never over an existing file. Why it chose the grain and the
 * freshness column, and what else there was, goes to stderr, so stdout stays the contract.
 */
export async function inferCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: COMMAND_HELP.infer.options,
  });
  if (positionals.length === 0) throw new GateError('bad_arguments', `name at least one sample partition (a directory or files)\nusage: ${COMMAND_HELP.infer.usage}`);
  const enumMax = wholeNumber(values['enum-max'], '--enum-max') ?? DEFAULT_ENUM_MAX;
  const partitions = await samplePartitions(positionals);
  const dataset = datasetOf(partitions, values.name);
  const major = wholeNumber(values.major, '--major') ?? dataset.major ?? 1;
  const partition = guessPartition(partitions.map((p) => p.dir));
  const format = await sampleFormat(partitions);
  const csv = format === 'csv' ? await sniffDialect(partitions[0]!.files[0]!) : undefined;
  const { text, proposal } = await inferFromSamples(partitions, { name: dataset.name, major, enumMax, format, partition, now: Date.now(), ...(csv ? { csv } : {}) });
  if (values.out === undefined) io.stdout(text);
  else io.stdout(`wrote ${await writeNew(join(values.out, `${dataset.name}.v${major}.yaml`), text)}\n`);
  io.stderr(explainChoices(proposal));
  return EXIT.ok;
}

/** The choices a reviewer should check first, with their reasons and runners-up (also in the YAML). */
export function explainChoices(proposal: ProposedContract): string {
  const blocks = [proposal.grainNotes, choiceLines(proposal.freshnessChoice)];
  return blocks.map((block) => block.map((line, i) => (i === 0 ? line : `  ${line}`)).join('\n')).join('\n') + '\n';
}

function wholeNumber(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new GateError('bad_arguments', `${option} must be a whole number, not "${text}"`);
  return value;
}

/** `--name`, or the folder the partitions sit in (above a `v<major>` folder, if any). */
function datasetOf(partitions: readonly SamplePartition[], explicit: string | undefined): { name: string; major?: number } {
  if (explicit !== undefined) {
    if (!NAME.test(explicit)) throw new GateError('bad_arguments', `--name "${explicit}" is not a dataset name: lower case letters, digits, "_" or "-", starting with a letter`);
    const { major } = guessDataset(partitions[0]!.dir);
    return { name: explicit, ...(major === undefined ? {} : { major }) };
  }
  const guesses = partitions.map((p) => guessDataset(p.dir));
  const names = new Set(guesses.map((g) => g.name));
  const [name] = names;
  if (names.size === 1 && name !== undefined) return { name, ...(guesses[0]!.major === undefined ? {} : { major: guesses[0]!.major }) };
  const folders = partitions.map((p) => p.dir).slice(0, 3).join(', ');
  throw new GateError('bad_arguments', `cannot tell the dataset's name from the folders (${folders}): pass --name <dataset>`);
}

/**
 * Writes a file that must not exist yet: a proposal never replaces a contract someone edited.
 * Its --out directory is made if absent, as `import` does.
 */
async function writeNew(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true }).then(() => writeFile(path, text, { flag: 'wx' })).catch((error: unknown) => {
    const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
    const message = exists ? `${path} already exists; refusing to overwrite it (move it away or choose another --out)` : `${path}: cannot write the contract (${(error as Error).message})`;
    throw new GateError(exists ? 'bad_arguments' : 'path_not_found', message, { cause: error, context: { path } });
  });
  return path;
}
