import { isoSeconds } from '../contract/temporal.js';
import { verdictChanged, type ReplayedPartition } from './replay-entry.js';
import type { ReplayRun } from './replay-history.js';

/** `--format json`: the whole replay as one object for CI, every violation included. */
export function replayJson(run: ReplayRun, exitCode: number): object {
  const { summary } = run;
  return {
    contract: run.contract,
    location: run.location,
    window: { since: isoSeconds(run.window.since), asked: run.window.asked },
    quarantined: run.quarantined,
    partitions: run.partitions.map((partition) => partitionJson(partition, run.location)),
    summary: {
      published: summary.published,
      released: summary.released,
      quarantined: summary.quarantined,
      violations: summary.violations,
      quarantined_violations: summary.quarantinedViolations,
      text: summary.lines,
    },
    exit_code: exitCode,
  };
}

function partitionJson(partition: ReplayedPartition, location: string): object {
  const { entry, report } = partition;
  return {
    partition: entry.partition,
    source: entry.source,
    attempt: entry.attempt,
    record: `${location}/${entry.record.key}`,
    time: isoSeconds(partition.time),
    time_from: partition.timeBasis,
    judged_as_of: entry.decidedAt === undefined ? null : isoSeconds(entry.decidedAt),
    then: partition.then,
    then_summary: entry.thenSummary ?? null,
    replayed: partition.replayed,
    changed: verdictChanged(partition),
    rows: report?.rows ?? null,
    files: entry.files,
    violations: report?.violations ?? [],
    problem: partition.problem ?? null,
  };
}
