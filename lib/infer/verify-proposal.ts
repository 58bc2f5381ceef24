import { buildCheckPlan } from '../checks/check-plan.js';
import { runChecks } from '../checks/validate-partition.js';
import { parseContract } from '../contract/load-contract.js';
import type { Contract } from '../contract/model.js';
import { formatProblem } from '../contract/problems.js';
import { GateError } from '../errors.js';
import { localPartitionFile } from '../storage/local-files.js';
import type { ProposedContract } from './proposal.js';
import type { Finding } from './relax-proposal.js';
import type { SamplePartition } from './sample-partitions.js';

/** How long after the newest freshness value each sample is checked: just after it. */
const CHECK_DELAY_MS = 1000;

/** Parses emitted YAML as `lint` does; a proposal that does not lint is a bug here, not a data problem. */
export function lintProposal(text: string, proposal: ProposedContract): Contract {
  const { contract, problems } = parseContract(text, `${proposal.name}.v${proposal.major}.yaml`);
  if (contract && problems.length === 0) return contract;
  throw new GateError('internal', `the proposed contract does not lint:\n${problems.map(formatProblem).join('\n')}`);
}

/**
 * Checks every sample partition against the contract with the engine, as `validate` would,
 * at a check time just after the partition's newest freshness value, and returns what failed.
 */
export async function verifyProposal(contract: Contract, proposal: ProposedContract, partitions: readonly SamplePartition[], now: number): Promise<(Finding & { readonly file?: string })[]> {
  const findings: (Finding & { file?: string })[] = [];
  for (const [i, partition] of partitions.entries()) {
    const newest = proposal.freshness?.newest[i];
    const plan = buildCheckPlan(contract, newest === undefined ? now : newest + CHECK_DELAY_MS);
    const files = partition.files.map((f) => localPartitionFile(f.path, f.size));
    const { report } = await runChecks(plan, files);
    for (const v of report.violations) findings.push({ rule: v.rule, ...(v.column ? { column: v.column } : {}), message: v.message, ...(v.samples[0] ? { file: v.samples[0].file } : {}) });
  }
  return findings;
}
