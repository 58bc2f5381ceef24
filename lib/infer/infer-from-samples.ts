import type { DataFormat } from '../contract/model.js';
import type { TextLayout } from '../formats/open-table.js';
import type { SniffedDialect } from './sniff-dialect.js';
import { GateError } from '../errors.js';
import { emitContract } from './emit-contract.js';
import { rankedKeys, type KeySearch } from './infer-grain.js';
import { compositePriority, compositeRound, isSettled } from './key-candidates.js';
import { KeyTracker } from './key-tracker.js';
import type { PartitionGuess } from './partition-naming.js';
import type { ProposedContract } from './proposal.js';
import { firstSearch, proposeContract, type InferOptions } from './propose-contract.js';
import { readSamples, trackKeys } from './read-samples.js';
import type { SampleStats } from './sample-stats.js';
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
  /** How the CSV samples are written (sniff-dialect.ts): they are read so, and the contract says so. */
  readonly csv?: SniffedDialect;
}

/**
 * Reads the samples, proposes a contract, and checks it against every sample with the real
 * engine, relaxing what fails, so the YAML returned lints and passes the data it came from.
 * Returns the YAML and the proposal it was written from (whose choices the CLI explains).
 */
export async function inferFromSamples(partitions: readonly SamplePartition[], request: InferRequest): Promise<{ text: string; proposal: ProposedContract }> {
  const options: InferOptions = { name: request.name, major: request.major, format: request.format, partition: request.partition, enumMax: request.enumMax, ...(request.csv ? { csv: request.csv } : {}) };
  const layout: TextLayout = request.csv ? { csv: request.csv.dialect, ...(request.csv.columns ? { columns: request.csv.columns } : {}) } : {};
  const stats = await readSamples(partitions, request.partition.values, request.format, request.enumMax + 1, layout);
  let proposal = await searchKeys(stats, options, partitions, request.format, layout);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const text = emitContract(proposal);
    const findings = await verifyProposal(lintProposal(text, proposal), proposal, partitions, request.now);
    if (findings.length === 0) return { text, proposal };
    const stuck = findings.find((f) => !canRelax(f));
    if (stuck) throw new GateError('bad_arguments', `${stuck.file ?? 'a sample'}: ${stuck.message}`);
    proposal = relaxProposal(proposal, findings);
  }
  throw new GateError('internal', 'the proposed contract still fails its own samples after relaxing it; please report this');
}

/**
 * Single columns and declared keys come from the first read. While no key so far is one a
 * larger key cannot beat (see isSettled), pairs and then triples of the most plausible columns
 * are tracked, each in one more read of only their columns.
 */
async function searchKeys(stats: SampleStats, options: InferOptions, partitions: readonly SamplePartition[], format: DataFormat, layout: TextLayout): Promise<ProposedContract> {
  let search: KeySearch = firstSearch(stats);
  let proposal = proposeContract(stats, options, search);
  const constant = stats.constantColumns();
  for (const size of [2, 3] as const) {
    if (isSettled(rankedKeys(search, proposal.columns)[0])) break;
    const round = compositeRound(size, proposal.columns, search.results, constant);
    if (round.keys.length === 0) break;
    const byName = new Map(proposal.columns.map((c) => [c.name, c]));
    const tracker = new KeyTracker(search.budget);
    round.keys.forEach((key) => tracker.add(key, compositePriority(key, byName)));
    await trackKeys(partitions, format, tracker, round.parts, layout);
    search = { ...search, results: [...search.results, ...tracker.results()], rounds: [...search.rounds, round] };
    proposal = proposeContract(stats, options, search);
  }
  return proposal;
}
