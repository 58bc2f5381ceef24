import { strictContract } from '../checks/rule-severity.js';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCheckPlan } from '../checks/check-plan.js';
import type { PlanFacts } from '../checks/plan-facts.js';
import type { LoadOptions } from '../contract/contract-defaults.js';
import type { Contract } from '../contract/model.js';
import { matchPartition, renderPartition } from '../contract/partition-template.js';
import { parseLakeAddress, partitionOfPaths, prefixedLake } from '../lake/lake-address.js';
import { needsLake, readPlanFacts, type Lake } from '../lake/plan-facts.js';
import { referenceContracts } from '../lake/reference-contracts.js';
import { runChecksInParallel } from '../parallel/parallel-checks.js';
import { GateError } from '../errors.js';
import { formatJunitReport } from '../report/junit-report.js';
import { isPublishable, type Report } from '../report/report.js';
import { formatTextReport } from '../report/text-report.js';
import { localPartitionFiles } from '../storage/local-files.js';
import { localObjectStore } from '../storage/local-object-store.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { EXIT, type CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { openProbeLake, type OpenLake } from './probe-lake.js';
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
  if (values.partition !== undefined && values.history === undefined) throw new GateError('bad_arguments', `--partition names the partition whose published history --history reads; pass --history too\nusage: ${VALIDATE_USAGE}`);
  const format = readFormat(values.format);
  const now = parseNow(values.now);
  const loadOptions = loadOptionsFrom(values);
  const loaded = await requireContract(values.contract, io.stderr, loadOptions);
  const contract = values.strict ? strictContract(loaded) : loaded;
  const facts = values.history === undefined ? undefined : await lakeFacts(contract, { lake: values.history, partition: values.partition, contractFile: values.contract, paths: positionals, loadOptions, warn: io.stderr });
  // Only text output is for a person: the progress line would garble nothing, but is noise in a file.
  const report = await validateWith(contract, positionals, now, format === 'text' ? io : { ...io, isTTY: false }, workers, facts);
  io.stdout(formatOutput(report, format, contract, now, facts));
  // Warnings and rows withheld within the tolerance pass; the report says how many.
  return isPublishable(report) ? EXIT.ok : EXIT.violated;
}

interface LakeRequest {
  /** `--history`: a directory or s3://bucket[/prefix]. */
  readonly lake: string;
  readonly partition: string | undefined;
  readonly contractFile: string;
  readonly paths: readonly string[];
  readonly loadOptions: LoadOptions;
  readonly warn: (text: string) => void;
}

/**
 * `--history`: what the contract's rules that compare with published data need, read before
 * the checks. A contract with no such rule opens no lake. Referenced contracts come from the
 * lake's registry, or from the files beside the --contract file for datasets it does not hold.
 */
async function lakeFacts(contract: Contract, request: LakeRequest): Promise<PlanFacts | undefined> {
  const partition = checkedPartition(contract, request);
  if (!needsLake(contract)) return undefined;
  const lake = await openHistoryLake(request.lake);
  try {
    const sources = { registryPrefix: lake.registryPrefix, dir: dirname(request.contractFile), loadOptions: request.loadOptions, warn: request.warn };
    return await readPlanFacts(lake, await referenceContracts(lake.store, contract, sources), contract, partition);
  } finally {
    await lake.close();
  }
}

/** `--partition`, else the one the validated paths are named for; required only by volume_vs_history. */
function checkedPartition(contract: Contract, request: LakeRequest): string | undefined {
  const template = contract.produces.partition;
  if (request.partition !== undefined) {
    if (matchPartition(template, request.partition)) return request.partition;
    throw new GateError('bad_arguments', `--partition ${request.partition} is not a partition of ${contract.name}: its template is "${template}"`);
  }
  const found = partitionOfPaths(request.paths, template);
  if (found !== undefined || !contract.sla?.volumeVsHistory) return found;
  throw new GateError('bad_arguments', `${contract.name} has sla.volume_vs_history, which compares the partition with those published before it, but ${request.paths.join(', ')} ${request.paths.length === 1 ? 'does' : 'do'} not end in one partition path like "${template}": pass --partition, e.g. --partition ${renderPartition(template, { ds: '2026-11-30', hh: '06' })}`);
}

/** A lake and where the gate's layout and registry sit in it. */
type HistoryLake = OpenLake & Lake & { readonly registryPrefix: string };

/**
 * `s3://bucket[/prefix]` through the usual credential chain (AWS_ENDPOINT_URL_S3 names another
 * endpoint); a directory `serve --dir` keeps as probe opens it (through the running serve, or
 * its files); any other directory as the bucket itself.
 */
async function openHistoryLake(text: string): Promise<HistoryLake> {
  const address = parseLakeAddress(text);
  const nothingToClose = async () => {};
  if (address.kind === 's3') {
    const store = s3ObjectStore({ client: createS3Client({}), bucket: address.bucket });
    return { store, description: text, close: nothingToClose, ...prefixedLake(address.prefix) };
  }
  const root = prefixedLake('');
  if ((await isDirectory(join(address.path, 'buckets'))) || (await stat(join(address.path, 'serve.json')).catch(() => undefined))) {
    return { ...(await openProbeLake({ dir: address.path, dirGiven: true })), ...root };
  }
  if (!(await isDirectory(address.path))) throw new GateError('path_not_found', `--history ${address.path}: no such directory`, { context: { path: address.path } });
  return { store: localObjectStore({ root: address.path }), description: address.path, close: nothingToClose, ...root };
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

function readFormat(text: string): Format {
  const format = FORMATS.find((f) => f === text);
  if (!format) throw new GateError('bad_arguments', `--format must be one of ${FORMATS.join(', ')}, not "${text}"`);
  return format;
}

function formatOutput(report: Report, format: Format, contract: Contract, now: number, facts?: PlanFacts): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  return format === 'junit' ? formatJunitReport(report, buildCheckPlan(contract, now, facts)) : formatTextReport(report);
}

export async function runValidation(contractPath: string, paths: readonly string[], now: number, io: CliIo, warn: (text: string) => void, workers?: number, options: LoadOptions = {}): Promise<Report> {
  return validateWith(await requireContract(contractPath, warn, options), paths, now, io, workers);
}

async function validateWith(contract: Contract, paths: readonly string[], now: number, io: CliIo, workers?: number, facts?: PlanFacts): Promise<Report> {
  const files = await localPartitionFiles(paths);
  const progress = progressLine(io);
  const options = { onProgress: progress.update, ...(workers === undefined ? {} : { workers }) };
  try {
    return (await runChecksInParallel(contract, now, files, facts ? { ...options, facts } : options)).report;
  } finally {
    progress.clear();
  }
}
