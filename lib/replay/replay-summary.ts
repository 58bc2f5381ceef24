import type { ReplayedPartition } from './replay-entry.js';
import { formatGroup, groupViolations, type ViolationGroup } from './violation-groups.js';

export interface Tally {
  readonly replayed: number;
  /** Would be quarantined by the proposed contract. */
  readonly failing: number;
  readonly passing: number;
  /** Could not be judged: their files are not the ones the gate recorded. */
  readonly unreadable: number;
}

export interface ReplaySummary {
  /** Published by their checks: the partitions the exit code is about. */
  readonly published: Tally;
  /** Published over failed checks by their owner's release: shown, never counted as what the change breaks. */
  readonly released: Tally;
  readonly quarantined: Tally;
  /** Why published partitions would now fail: what the contract change costs. */
  readonly violations: readonly ViolationGroup[];
  /** Why quarantined attempts would still fail. */
  readonly quarantinedViolations: readonly ViolationGroup[];
  /** The summary a person reads: a line for the published partitions, then for the released, unreadable and quarantined ones there are. */
  readonly lines: readonly string[];
}

/** Groups shown in a summary line; the JSON has them all. Attempts that failed then fail for many reasons: fewer. */
const GROUPS_SHOWN = 5;
const QUARANTINED_GROUPS_SHOWN = 3;

export function summariseReplay(partitions: readonly ReplayedPartition[], withQuarantined: boolean): ReplaySummary {
  const published = partitions.filter((p) => p.then === 'published');
  const released = partitions.filter((p) => p.then === 'released');
  const quarantined = partitions.filter((p) => p.then === 'quarantined');
  const summary = {
    published: tally(published),
    released: tally(released),
    quarantined: tally(quarantined),
    violations: groupViolations(failing(published)),
    quarantinedViolations: groupViolations(failing(quarantined)),
  };
  const lines = [publishedLine(summary.published, summary.violations), unreadableLine('published partition', published), releasedLine(summary.released)];
  if (withQuarantined) lines.push(quarantinedLine(summary.quarantined, summary.quarantinedViolations), unreadableLine('quarantined attempt', quarantined));
  return { ...summary, lines: lines.filter((line) => line !== '') };
}

function tally(partitions: readonly ReplayedPartition[]): Tally {
  const count = (verdict: ReplayedPartition['replayed']) => partitions.filter((p) => p.replayed === verdict).length;
  return { replayed: partitions.length, failing: count('quarantined'), passing: count('published'), unreadable: count('unreadable') };
}

function failing(partitions: readonly ReplayedPartition[]) {
  return partitions.flatMap((p) => (p.replayed === 'quarantined' && p.report ? [p.report] : []));
}

function publishedLine(counts: Tally, groups: readonly ViolationGroup[]): string {
  if (counts.replayed === 0) return 'no published partition in the window';
  if (counts.failing === 0) return counts.replayed === 1 ? 'the 1 published partition would still be published' : `all ${counts.replayed} published partitions would still be published`;
  return `${counts.failing} of ${plural(counts.replayed, 'published partition')} would have been quarantined: ${listGroups(groups)}`;
}

function releasedLine(counts: Tally): string {
  if (counts.replayed === 0) return '';
  const verdicts = [...(counts.failing > 0 ? [`${counts.failing} would still fail`] : []), ...(counts.passing > 0 ? [`${counts.passing} would now pass`] : [])];
  return `${plural(counts.replayed, 'released partition')} (published over failed checks, not counted): ${verdicts.join(', ') || 'none could be judged'}`;
}

function quarantinedLine(counts: Tally, groups: readonly ViolationGroup[]): string {
  if (counts.replayed === 0) return 'no quarantined attempt in the window';
  const still = counts.failing === 0 ? [] : [`${counts.failing} would still be quarantined (${listGroups(groups, QUARANTINED_GROUPS_SHOWN)})`];
  const now = counts.passing === 0 ? [] : [`${counts.passing} would now be published`];
  return `${plural(counts.replayed, 'quarantined attempt')}: ${[...still, ...now].join(', ') || 'none could be judged'}`;
}

function unreadableLine(what: string, partitions: readonly ReplayedPartition[]): string {
  const unreadable = partitions.filter((p) => p.replayed === 'unreadable');
  const [first] = unreadable;
  if (!first) return '';
  return `${plural(unreadable.length, what)} could not be replayed, e.g. ${first.entry.partition}: ${first.problem ?? 'unreadable'}`;
}

function listGroups(groups: readonly ViolationGroup[], limit = GROUPS_SHOWN): string {
  const shown = groups.slice(0, limit).map(formatGroup).join(', ');
  return groups.length > limit ? `${shown}, and ${groups.length - limit} more` : shown;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
