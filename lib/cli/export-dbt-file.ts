import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Contract } from '../contract/model.js';
import { dbtDrift, readDbtSchema } from '../export/dbt-drift.js';
import { mergeDbtSchema } from '../export/dbt-schema-merge.js';
import { partNames } from '../export/dbt-schema-part.js';
import type { DbtOptions } from '../export/to-dbt.js';
import { describeError, GateError } from '../errors.js';
import { EXIT, type CliIo } from './cli-io.js';
import { writeOut } from './write-out.js';

/** What `--check` and `--write` need besides the contract: the file and how the export was asked for. */
export interface DbtFileRequest {
  readonly contractPath: string;
  readonly file: string;
  readonly options: DbtOptions;
}

/**
 * `export --to dbt --check <schema.yml>`: exit 0 when the part of the file the export owns is
 * what the contract generates, else 1 with the findings, a diff and the command that regenerates
 * it. A missing file is out of date too: CI should fail on a contract whose tests were never written.
 */
export async function checkDbtFile(contract: Contract, request: DbtFileRequest, io: CliIo): Promise<number> {
  const { file } = request;
  const text = await readSchemaFile(file);
  const drift = dbtDrift(contract, text === undefined ? undefined : parseSchemaFile(text, file), request.options);
  const what = describePart(contract);
  if (drift.upToDate) {
    io.stdout(`${file} is up to date with ${contract.name} ${contract.version.text} (${what})\n`);
    return EXIT.ok;
  }
  const lines = [
    ...(text === undefined
      ? [`${file} does not exist: the dbt tests of ${request.contractPath} (${contract.name} ${contract.version.text}) were never written there`]
      : [`${file} is out of date: its dbt tests are not the ones ${request.contractPath} (${contract.name} ${contract.version.text}) generates`, ...drift.findings.map((finding) => `  ${finding}`), '', drift.diff.trimEnd()]),
    '',
    ...(drift.otherAdapter ? [`The committed model was exported with --adapter ${drift.otherAdapter}; if that is the warehouse, check with --adapter ${drift.otherAdapter}.`] : []),
    'To fix, change the contract if the tests should change, then regenerate the file and commit it:',
    `  ${regenerateCommand(request)}`,
    `It rewrites only ${what}; the rest of the file is kept.`,
  ];
  io.stdout(`${lines.join('\n')}\n`);
  return EXIT.violated;
}

/** `export --to dbt --write <schema.yml>`: the owned part regenerated in place, the rest kept; a new file's directory made. */
export async function writeDbtFile(contract: Contract, request: DbtFileRequest, io: CliIo): Promise<number> {
  const { file } = request;
  const text = await readSchemaFile(file);
  if (text !== undefined) parseSchemaFile(text, file);
  const merged = mergeDbtSchema(contract, text, file, request.options);
  const version = `${contract.name} ${contract.version.text}`;
  if (merged === text) {
    io.stdout(`${file} is up to date with ${version}; not rewritten\n`);
    return EXIT.ok;
  }
  // The models directory of a new dataset may not exist yet; writeOut names the path if it still cannot be written.
  if (text === undefined) await mkdir(dirname(file), { recursive: true }).catch(() => undefined);
  await writeOut(file, merged, 'dbt schema file');
  io.stdout(`wrote the dbt export of ${version} into ${file} (${describePart(contract)}${text === undefined ? '' : '; the rest of the file kept'})\n`);
  return EXIT.ok;
}

function describePart(contract: Contract): string {
  const names = partNames(contract);
  return `model ${names.model}, source table ${names.source}.${names.table}`;
}

/** The file's text, or undefined when there is no such file. */
async function readSchemaFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new GateError('path_not_found', `${file}: cannot read the dbt schema file: ${describeError(error)}`, { cause: error, context: { path: file } });
  }
}

function parseSchemaFile(text: string, file: string) {
  const { root, error } = readDbtSchema(text);
  if (!root) throw new GateError('bad_arguments', `${file}: not a dbt schema file: ${error}\nFix the YAML, or delete the file and write it again with --write`, { context: { path: file } });
  return root;
}

/** The export that writes the file, with the options this check was given, ready to paste. */
export function regenerateCommand(request: DbtFileRequest): string {
  const { adapter, location } = request.options;
  const words = ['npx', 'contract-gate', 'export', request.contractPath, '--to', 'dbt', ...(adapter === undefined ? [] : ['--adapter', adapter]), ...(location === undefined ? [] : ['--location', location]), '--write', request.file];
  return words.map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
