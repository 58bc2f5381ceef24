import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { exportOdcs } from '../../lib/odcs/to-odcs.js';
import { runChecksInParallel } from '../../lib/parallel/parallel-checks.js';
import type { CheckRun } from '../../lib/checks/validate-partition.js';
import { localPartitionFiles } from '../../lib/storage/local-files.js';
import { planFacts, type SpecFacts } from './spec-facts.js';

export interface EngineOptions {
  /** Worker threads: with 2, files and row-group ranges are checked in worker threads. */
  readonly workers: number;
  /** Validate with the contract exported to ODCS and loaded back, which must mean the same. */
  readonly odcs: boolean;
}

/**
 * Runs contract-gate as `contract-gate validate --contract <file> <dir> --now <now> --workers N
 * --history <lake>` does (runValidation), with the facts the lake would have given.
 */
export async function runEngine(yaml: string, contractFile: string, dir: string, now: number, options: EngineOptions, facts: SpecFacts): Promise<CheckRun> {
  const native = load(yaml, contractFile);
  const contract = options.odcs ? load(exportOdcs(native), contractFile) : native;
  const files = await localPartitionFiles([dir]);
  return runChecksInParallel(contract, now, files, { workers: options.workers, facts: planFacts(facts) });
}

function load(text: string, file: string): Contract {
  const { contract, problems } = parseContract(text, file);
  if (!contract) throw new Error(`contract-gate refused the contract:\n${problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n')}\n${text}`);
  return contract;
}
