import { parseArgs } from 'node:util';
import { runChecksInParallel } from '../parallel/parallel-checks.js';
import { GateError } from '../errors.js';
import type { Report } from '../report/report.js';
import { formatTextReport } from '../report/text-report.js';
import { localPartitionFiles } from '../storage/local-files.js';
import { EXIT, type CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { parseNow } from './parse-now.js';
import { progressLine } from './progress-line.js';
import { VALIDATE_USAGE } from './usage.js';


/** `validate`: checks local files against a contract and prints the verdict. */
export async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { contract: { type: 'string' }, format: { type: 'string', default: 'text' }, now: { type: 'string' }, workers: { type: 'string' } },
  });
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 0)) throw new GateError('bad_arguments', `--workers must be a whole number (0 or 1: one thread), not "${values.workers}"`);
  if (!values.contract) throw new GateError('bad_arguments', `--contract is required\nusage: ${VALIDATE_USAGE}`);
  if (positionals.length === 0) throw new GateError('bad_arguments', `name at least one file or directory to validate\nusage: ${VALIDATE_USAGE}`);
  const format = values.format;
  if (format !== 'text' && format !== 'json') throw new GateError('bad_arguments', `--format must be text or json, not "${format}"`);
  const report = await runValidation(values.contract, positionals, parseNow(values.now), format === 'text' ? io : { ...io, isTTY: false }, io.stderr, workers);
  io.stdout(format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatTextReport(report));
  return report.status === 'pass' ? EXIT.ok : EXIT.violated;
}

export async function runValidation(contractPath: string, paths: readonly string[], now: number, io: CliIo, warn: (text: string) => void, workers?: number): Promise<Report> {
  const contract = await requireContract(contractPath, warn);
  const files = await localPartitionFiles(paths);
  const progress = progressLine(io);
  try {
    return (await runChecksInParallel(contract, now, files, { onProgress: progress.update, ...(workers === undefined ? {} : { workers }) })).report;
  } finally {
    progress.clear();
  }
}
