import { buildCheckPlan } from '../checks/check-plan.js';
import { runChecks } from '../checks/validate-partition.js';
import type { Contract } from '../contract/model.js';
import { isoSeconds } from '../contract/temporal.js';
import { describeError, GateError } from '../errors.js';
import { isPublishable, type Report } from '../report/report.js';
import { objectFile } from '../storage/object-file.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { HistoryEntry } from './history-entry.js';
import { partitionTime, type TimeBasis } from './replay-window.js';

export type Verdict = 'published' | 'quarantined';
/** What the gate did then: a release is a publish over failed checks, by the owner's decision. */
export type ThenVerdict = Verdict | 'released';

/** One partition (or quarantined attempt) judged again by the proposed contract. */
export interface ReplayedPartition {
  readonly entry: HistoryEntry;
  /** The partition's time, which placed it in the window, and where that time came from. */
  readonly time: number;
  readonly timeBasis: TimeBasis;
  /** What the gate decided then: where it was found (and a release's mark) says. */
  readonly then: ThenVerdict;
  /** What the proposed contract would have decided; `unreadable` when its bytes are not there to judge. */
  readonly replayed: Verdict | 'unreadable';
  /** The proposed contract's report, judged as of the gate's decision time. */
  readonly report?: Report;
  readonly problem?: string;
}

/**
 * Judges an entry's files by the contract as of the instant the gate judged them: freshness and
 * `not_in_future` against then, not today, or every old partition would fail freshness. Reads
 * are pinned to the ETags recorded, so a file replaced since is reported, never judged in its place.
 */
export async function replayEntry(store: ObjectStore, contract: Contract, entry: HistoryEntry, placed: { time: number; timeBasis: TimeBasis }): Promise<ReplayedPartition> {
  const base = { entry, ...placed, then: thenVerdict(entry) };
  if (entry.problem !== undefined || entry.decidedAt === undefined) return { ...base, replayed: 'unreadable', problem: entry.problem ?? 'no decision time' };
  if (partitionTime(contract.produces.partition, entry.partition) === undefined) return { ...base, ...badPartition(contract, entry, entry.decidedAt) };
  try {
    const run = await runChecks(buildCheckPlan(contract, entry.decidedAt, { partition: entry.partition }), entry.files.map((file) => objectFile(store, file)));
    return { ...base, replayed: isPublishable(run.report) ? 'published' : 'quarantined', report: run.report };
  } catch (error) {
    // Only these mean "not the bytes the gate judged"; anything else (the bucket unreachable) stops the run.
    if (!(error instanceof GateError && (error.code === 'not_found' || error.code === 'precondition_failed'))) throw error;
    return { ...base, replayed: 'unreadable', problem: `a file is no longer the one the gate judged: ${describeError(error)}` };
  }
}

/** Whether the proposed contract decides otherwise than the checks did then (a release's checks failed). */
export function verdictChanged(partition: ReplayedPartition): boolean {
  if (partition.replayed === 'unreadable') return false;
  return partition.replayed !== (partition.then === 'published' ? 'published' : 'quarantined');
}

function thenVerdict(entry: HistoryEntry): ThenVerdict {
  if (entry.source === 'quarantined') return 'quarantined';
  return entry.released ? 'released' : 'published';
}

/** The gate refuses a path its contract's template does not fit before reading a byte; so does a replay. */
function badPartition(contract: Contract, entry: HistoryEntry, decidedAt: number): Pick<ReplayedPartition, 'replayed' | 'report'> {
  const message = `the partition path "${entry.partition}" does not fit the contract's template "${contract.produces.partition}"`;
  const report: Report = {
    status: 'fail',
    contract: { name: contract.name, version: contract.version.text },
    rows: 0,
    files: entry.files.map((file) => ({ path: file.key, rows: 0, bytes: file.size })),
    violations: [{ rule: 'bad_partition', severity: 'error', count: 1, message, samples: [{ file: entry.record.key, row: null, value: null }] }],
    checked_at: isoSeconds(decidedAt),
  };
  return { replayed: 'quarantined', report };
}
