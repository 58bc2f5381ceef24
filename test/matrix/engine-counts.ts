import { loadContractFile } from '../../lib/cli/contract-file.js';
import type { Contract } from '../../lib/contract/model.js';
import { runChecksInParallel } from '../../lib/parallel/parallel-checks.js';
import type { Report } from '../../lib/report/report.js';
import { localPartitionFiles } from '../../lib/storage/local-files.js';
import type { RuleCounts } from './duckdb-oracle.js';

/** Loads a contract file, failing loudly on any problem (a test contract must be clean). */
export async function loadTestContract(path: string): Promise<Contract> {
  const { contract, problems } = await loadContractFile(path);
  if (!contract || problems.length > 0) throw new Error(`${path}: ${JSON.stringify(problems)}`);
  return contract;
}

/**
 * contract-gate's verdict on files, through the entry point `contract-gate validate` uses
 * (`--workers` is `workers`: below 512 MB the CLI checks in one thread unless told otherwise).
 */
export async function validateFiles(contract: Contract, paths: readonly string[], now: number, workers?: number): Promise<Report> {
  const options = workers === undefined ? {} : { workers };
  return (await runChecksInParallel(contract, now, await localPartitionFiles(paths), options)).report;
}

/** A report's counts per `rule:column` (or `rule`), summed over the messages a rule may use. */
export function reportCounts(report: Report): RuleCounts {
  const counts: Record<string, number> = {};
  for (const v of report.violations) {
    const key = v.column === undefined ? v.rule : `${v.rule}:${v.column}`;
    counts[key] = (counts[key] ?? 0) + v.count;
  }
  return { rows: report.rows, counts };
}

/** The reasons a report gives for unreadable files or rows, to show beside a failed comparison. */
export function unreadableReasons(report: Report): string[] {
  return report.violations.filter((v) => v.rule === 'unreadable').flatMap((v) => v.samples.map((s) => String(s.value)));
}
