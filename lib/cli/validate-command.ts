import { parseArgs } from 'node:util';
import { buildCheckPlan } from '../checks/check-plan.js';
import type { LoadOptions } from '../contract/contract-defaults.js';
import type { Contract } from '../contract/model.js';
import { runChecksInParallel } from '../parallel/parallel-checks.js';
import { GateError } from '../errors.js';
import { formatJunitReport } from '../report/junit-report.js';
import type { Report } from '../report/report.js';
import { formatTextReport } from '../report/text-report.js';
import { localPartitionFiles } from '../storage/local-files.js';
import { EXIT, type CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { progressLine } from './progress-line.js';
import { COMMAND_HELP, VALIDATE_USAGE } from './usage.js';

const FORMATS = ['text', 'json', 'junit'] as const;
type Format = (typeof FORMATS)[number];

/** `validate`: checks local files against a contract and prints the verdict. */
export async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.validate.options });
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 0)) throw new GateError('bad_arguments', `--workers must be a whole number (0 or 1: one thread), not "${values.workers}"`);
  if (!values.contract) throw new GateError('bad_arguments', `--contract is required\nusage: ${VALIDATE_USAGE}`);
  if (positionals.length === 0) throw new GateError('bad_arguments', `name at least one file or directory to validate\nusage: ${VALIDATE_USAGE}`);
  const format = readFormat(values.format);
  const now = parseNow(values.now);
  const contract = await requireContract(values.contract, io.stderr, loadOptionsFrom(values));
  // Only text output is for a person: the progress line would garble nothing, but is noise in a file.
  const report = await validateWith(contract, positionals, now, format === 'text' ? io : { ...io, isTTY: false }, workers);
  io.stdout(formatOutput(report, format, contract, now));
  return report.status === 'pass' ? EXIT.ok : EXIT.violated;
}

function readFormat(text: string): Format {
  const format = FORMATS.find((f) => f === text);
  if (!format) throw new GateError('bad_arguments', `--format must be one of ${FORMATS.join(', ')}, not "${text}"`);
  return format;
}

function formatOutput(report: Report, format: Format, contract: Contract, now: number): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  return format === 'junit' ? formatJunitReport(report, buildCheckPlan(contract, now)) : formatTextReport(report);
}

export async function runValidation(contractPath: string, paths: readonly string[], now: number, io: CliIo, warn: (text: string) => void, workers?: number, options: LoadOptions = {}): Promise<Report> {
  return validateWith(await requireContract(contractPath, warn, options), paths, now, io, workers);
}

async function validateWith(contract: Contract, paths: readonly string[], now: number, io: CliIo, workers?: number): Promise<Report> {
  const files = await localPartitionFiles(paths);
  const progress = progressLine(io);
  try {
    return (await runChecksInParallel(contract, now, files, { onProgress: progress.update, ...(workers === undefined ? {} : { workers }) })).report;
  } finally {
    progress.clear();
  }
}
