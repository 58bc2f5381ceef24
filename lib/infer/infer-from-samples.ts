import type { DataFormat } from '../contract/model.js';
import { GateError } from '../errors.js';
import { emitContract } from './emit-contract.js';
import { pairCandidates } from './infer-grain.js';
import { KeyTracker } from './key-tracker.js';
import type { PartitionGuess } from './partition-naming.js';
import { proposeContract, type InferOptions } from './propose-contract.js';
import { readSamples, trackKeys } from './read-samples.js';
import { canRelax, relaxProposal } from './relax-proposal.js';
import type { SamplePartition } from './sample-partitions.js';
import { lintProposal, verifyProposal } from './verify-proposal.js';

/** Rounds of checking and relaxing before giving up: each round takes out every rule that failed. */
const MAX_ROUNDS = 3;

export interface InferRequest {
  readonly name: string;
  readonly major: number;
  readonly enumMax: number;
  readonly format: DataFormat;
  readonly partition: PartitionGuess;
  /** The check time for samples with no freshness column (no rule then depends on it). */
  readonly now: number;
}

/**
 * Reads the samples, proposes a contract, and checks it against every sample with the real
 * engine, relaxing what fails, so the YAML returned lints and passes the data it came from.
 */
export async function inferFromSamples(partitions: readonly SamplePartition[], request: InferRequest): Promise<string> {
  const options: InferOptions = { name: request.name, major: request.major, format: request.format, partition: request.partition, enumMax: request.enumMax };
  const stats = await readSamples(partitions, request.partition.values, request.format, request.enumMax + 1);
  let proposal = proposeContract(stats, options);
  const pairs = proposal.grain.length === 0 ? pairCandidates(proposal.columns) : [];
  if (pairs.length > 0) {
    const tracker = new KeyTracker();
    pairs.forEach((pair) => tracker.add(pair));
    await trackKeys(partitions, request.format, tracker, [...new Set(pairs.flat())]);
    proposal = proposeContract(stats, options, [...stats.keys.unique(), ...tracker.unique()]);
  }
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const text = emitContract(proposal);
    const findings = await verifyProposal(lintProposal(text, proposal), proposal, partitions, request.now);
    if (findings.length === 0) return text;
    const stuck = findings.find((f) => !canRelax(f));
    if (stuck) throw new GateError('bad_arguments', `${stuck.file ?? 'a sample'}: ${stuck.message}`);
    proposal = relaxProposal(proposal, findings);
  }
  throw new GateError('internal', 'the proposed contract still fails its own samples after relaxing it; please report this');
}
