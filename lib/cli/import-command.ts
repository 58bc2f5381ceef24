import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { COMMAND_HELP } from './usage.js';
import { formatProblem } from '../contract/problems.js';
import { GateError } from '../errors.js';
import { IMPORT_SOURCES, type ImportSource } from '../import/detect-source.js';
import { importContract } from '../import/import-contract.js';
import { EXIT, type CliIo } from './cli-io.js';
import { loadOptionsFrom } from './load-options.js';

const USAGE = 'contract-gate import [--from auto|dbt|jsonschema|pipeline-post|lesson|skill|duckdb-post|course] <file> [--model <name>] [--out <dir>] [--default-notify <a@x,b@y>] [--default-format parquet|csv|jsonl]';

/**
 * `import`: converts a dbt schema.yml, a JSON Schema or one of the older YAML contract shapes into
 * a native contract, on stdout or as `<name>.v<major>.yaml` in --out (never over an existing
 * file). Exit 0 when written, warnings on stderr; 2 when it cannot be converted, every problem
 * listed with its file:line:column.
 */
export async function importCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: COMMAND_HELP.import.options,
  });
  const from = values.from;
  if (from !== 'auto' && !(IMPORT_SOURCES as readonly string[]).includes(from)) throw new GateError('bad_arguments', `--from must be auto or one of ${IMPORT_SOURCES.join(', ')}, not "${from}"\nusage: ${USAGE}`);
  if (positionals.length !== 1) throw new GateError('bad_arguments', `name exactly one file to import\nusage: ${USAGE}`);
  const file = positionals[0]!;
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new GateError('path_not_found', `${file}: cannot read the file to import`, { cause: error, context: { file } });
  });
  const { defaults } = loadOptionsFrom(values);
  const result = importContract(text, file, { from: from as ImportSource | 'auto', model: values.model, defaults });
  if (from === 'auto' && result.source) io.stderr(`${file}: read as ${result.source} (${result.why ?? 'detected'})\n`);
  for (const problem of result.problems) io.stderr(`${formatProblem(problem)}\n`);
  if (!result.text || !result.fileName) {
    io.stderr(`contract-gate import: ${file} was not converted (${result.problems.filter((p) => p.severity === 'error').length} errors above)\n`);
    return EXIT.cannotProceed;
  }
  if (values.out === undefined) {
    io.stdout(result.text);
    return EXIT.ok;
  }
  return writeOut(values.out, result.fileName, result.text, io);
}

/** `wx`: created only if absent, in one step, so a contract someone wrote is never replaced. */
async function writeOut(dir: string, fileName: string, text: string, io: CliIo): Promise<number> {
  const path = join(dir, fileName);
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(path, text, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new GateError('path_not_found', `${path}: cannot write the contract`, { cause: error, context: { path } });
    io.stderr(`contract-gate import: ${path} exists already; not overwritten. Move it away, or import to another --out directory\n`);
    return EXIT.cannotProceed;
  }
  io.stderr(`wrote ${path}\n`);
  return EXIT.ok;
}
