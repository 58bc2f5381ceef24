import { parseArgs } from 'node:util';
import { DBT_ADAPTERS, isDbtAdapter, type DbtAdapter } from '../export/dbt-adapters.js';
import { EXPORT_TARGETS, LOCATED_TARGETS, exportContract, isExportTarget, type ExportOptions, type ExportTarget } from '../export/export-contract.js';
import { isS3Location } from '../export/published-table.js';
import { GateError } from '../errors.js';
import { EXIT, type CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { checkDbtFile, writeDbtFile } from './export-dbt-file.js';
import { COMMAND_HELP, EXPORT_USAGE } from './usage.js';
import { writeOut } from './write-out.js';

/** `export`: writes the contract in another format, to stdout or `--out`; for dbt, also `--check` or `--write` a schema.yml. */
export async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.export.options });
  const [path] = positionals;
  if (!path || positionals.length > 1) throw new GateError('bad_arguments', `name one contract file\nusage: ${EXPORT_USAGE}`);
  const target = readTarget(values.to);
  if (values.location !== undefined) checkLocation(values.location, target);
  const adapter = values.adapter === undefined ? undefined : readAdapter(values.adapter, target);
  const sync = readSync(values, target);
  const contract = await requireContract(path, io.stderr);
  const options: ExportOptions = { ...(values.location === undefined ? {} : { location: values.location }), ...(adapter === undefined ? {} : { adapter }) };
  if (sync) return (sync.mode === 'check' ? checkDbtFile : writeDbtFile)(contract, { contractPath: path, file: sync.file, options }, io);
  const text = exportContract(contract, target, options);
  if (values.out === undefined) {
    io.stdout(text);
    return EXIT.ok;
  }
  await writeOut(values.out, text, 'export');
  io.stdout(`wrote ${target} export of ${contract.name} ${contract.version.text} to ${values.out}\n`);
  return EXIT.ok;
}

function readTarget(text: string | undefined): ExportTarget {
  if (text === undefined) throw new GateError('bad_arguments', `--to is required: one of ${EXPORT_TARGETS.join(', ')}\nusage: ${EXPORT_USAGE}`);
  if (!isExportTarget(text)) throw new GateError('bad_arguments', `unknown export target "${text}"; expected one of ${EXPORT_TARGETS.join(', ')}`);
  return text;
}

/** `--check` or `--write`: one schema.yml, for dbt, instead of `--out`. */
function readSync(values: { check?: string; write?: string; out?: string }, target: ExportTarget): { mode: 'check' | 'write'; file: string } | undefined {
  const given = (['check', 'write', 'out'] as const).filter((name) => values[name] !== undefined);
  if (given.length > 1) throw new GateError('bad_arguments', `give one of --check, --write and --out, not ${given.map((name) => `--${name}`).join(' and ')}`);
  const mode = given[0] === 'check' || given[0] === 'write' ? given[0] : undefined;
  if (mode === undefined) return undefined;
  if (target !== 'dbt') throw new GateError('bad_arguments', `--${mode} applies to --to dbt only: it compares or rewrites a dbt schema.yml`);
  return { mode, file: values[mode]! };
}

function readAdapter(text: string, target: ExportTarget): DbtAdapter {
  if (target !== 'dbt') throw new GateError('bad_arguments', '--adapter applies to --to dbt only');
  if (!isDbtAdapter(text)) throw new GateError('bad_arguments', `unknown dbt adapter "${text}"; expected one of ${DBT_ADAPTERS.join(', ')}`);
  return text;
}

function checkLocation(location: string, target: ExportTarget): void {
  if (!LOCATED_TARGETS.includes(target)) throw new GateError('bad_arguments', `--location applies to --to ${LOCATED_TARGETS.join(' and ')} only`);
  if (!isS3Location(location)) throw new GateError('bad_arguments', `--location must be s3://<bucket>/<prefix>/, not "${location}"`);
}
