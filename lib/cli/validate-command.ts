import { strictContract } from '../checks/rule-severity.js';
import { parseArgs } from 'node:util';
import { buildCheckPlan } from '../checks/check-plan.js';
import type { PlanFacts } from '../checks/plan-facts.js';
import type { LoadOptions } from '../contract/contract-defaults.js';
import type { Contract } from '../contract/model.js';
import { matchPartition, partitionOfPaths, renderPartition } from '../contract/partition-template.js';
import { prestartFor, runChecksInParallel } from '../parallel/parallel-checks.js';
import type { PartitionFile } from '../checks/partition-file.js';
import { GateError } from '../errors.js';
import { formatJunitReport } from '../report/junit-report.js';
import { isPublishable, type Report } from '../report/report.js';
import { formatTextReport } from '../report/text-report.js';
import { htmlReport } from '../report/html-report.js';
import { localPartitionFiles } from '../storage/local-files.js';
import { EXIT, type CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { progressLine } from './progress-line.js';
import { lakeFacts } from './history-lake.js';
import { COMMAND_HELP, VALIDATE_USAGE } from './usage.js';
import { writeOut } from './write-out.js';

const FORMATS = ['text', 'json', 'junit', 'html'] as const;
type Format = (typeof FORMATS)[number];

/** `validate`: checks local files against a contract and prints the verdict. */
export async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.validate.options });
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 0)) throw new GateError('bad_arguments', `--workers must be a whole number (0 or 1: one thread), not "${values.workers}"`);
  if (!values.contract) throw new GateError('bad_arguments', `--contract is required\nusage: ${VALIDATE_USAGE}`);
  if (positionals.length === 0) throw new GateError('bad_arguments', `name at least one file or directory to validate\nusage: ${VALIDATE_USAGE}`);
  // The files are listed, and the workers a big partition needs started, while the contract loads.
  const listing = localPartitionFiles(positionals);
  listing.then((files) => prestartFor(files.reduce((sum, f) => sum + f.byteLength, 0), workers), () => {});
  const format = readFormat(values.format);
  const now = parseNow(values.now);
  const loadOptions = loadOptionsFrom(values);
  const loaded = await requireContract(values.contract, io.stderr, loadOptions);
  const contract = values.strict ? strictContract(loaded) : loaded;
  const partition = checkedPartition(contract, values.partition, positionals);
  const lake = values.history === undefined ? {} : await lakeFacts(contract, { lake: values.history, partition, contractFile: values.contract, paths: positionals, loadOptions, warn: io.stderr });
  const facts: PlanFacts = { ...lake, ...(partition === undefined ? {} : { partition }) };
  // Only text output is for a person: the progress line would garble nothing, but is noise in a file.
  const report = await validateWith(contract, listing, now, format === 'text' ? io : { ...io, isTTY: false }, workers, facts);
  const output = formatOutput(report, format, contract, now, facts);
  if (values.out === undefined) io.stdout(output);
  else {
    await writeOut(values.out, output, `${format} report`);
    io.stdout(`${formatTextReport(report).split('\n')[0]}\n  report: ${values.out}\n`);
  }
  // Warnings and rows withheld within the tolerance pass; the report says how many.
  return isPublishable(report) ? EXIT.ok : EXIT.violated;
}

/** `--partition`, else the one the validated paths are named for (its due time bounds freshness); none when neither says. */
function checkedPartition(contract: Contract, given: string | undefined, paths: readonly string[]): string | undefined {
  const template = contract.produces.partition;
  if (given === undefined) return partitionOfPaths(paths, template);
  if (matchPartition(template, given)) return given;
  throw new GateError('bad_arguments', `--partition ${given} is not a partition of ${contract.name}: its template is "${template}", e.g. --partition ${renderPartition(template, { ds: '2026-11-30', hh: '06' })}`);
}

function readFormat(text: string): Format {
  const format = FORMATS.find((f) => f === text);
  if (!format) throw new GateError('bad_arguments', `--format must be one of ${FORMATS.join(', ')}, not "${text}"`);
  return format;
}

function formatOutput(report: Report, format: Format, contract: Contract, now: number, facts?: PlanFacts): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'html') return htmlReport(report);
  return format === 'junit' ? formatJunitReport(report, buildCheckPlan(contract, now, facts)) : formatTextReport(report);
}

export async function runValidation(contractPath: string, paths: readonly string[], now: number, io: CliIo, warn: (text: string) => void, workers?: number, options: LoadOptions = {}): Promise<Report> {
  const contract = await requireContract(contractPath, warn, options);
  const partition = partitionOfPaths(paths, contract.produces.partition);
  return validateWith(contract, localPartitionFiles(paths), now, io, workers, partition === undefined ? undefined : { partition });
}

async function validateWith(contract: Contract, listing: Promise<PartitionFile[]>, now: number, io: CliIo, workers?: number, facts?: PlanFacts): Promise<Report> {
  const files = await listing;
  const progress = progressLine(io);
  const options = { onProgress: progress.update, ...(workers === undefined ? {} : { workers }) };
  try {
    return (await runChecksInParallel(contract, now, files, facts ? { ...options, facts } : options)).report;
  } finally {
    progress.clear();
  }
}
