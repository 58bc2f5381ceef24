import { OUTSIDE_INVARIANTS, type OutsideInvariant } from './invariants.js';
import type { TrialResult } from './outside-harness.js';
import type { Fault } from './trial-plan.js';

const COLUMNS = Object.keys(OUTSIDE_INVARIANTS) as OutsideInvariant[];
const FAULTS: readonly Fault[] = ['overwrite-good', 'overwrite-bad', 'delete', 'add', 'reput', 'backfill-overlap', 'backfill-replace', 'kill'];

/**
 * Trials that broke each invariant (columns; the findings themselves are in the details) among
 * the trials that had each fault (rows; a trial with several faults counts in each of their
 * rows), the fault-free trials, the trials that lived through a SIGKILL (any trial's), and all.
 */
export function outsideTable(trials: readonly TrialResult[]): string {
  const groups: [string, TrialResult[]][] = [
    ...FAULTS.map((f): [string, TrialResult[]] => [f, trials.filter((t) => t.faults.includes(f))]),
    ['no fault', trials.filter((t) => t.faults.length === 0)],
    ['lived thru kill', trials.filter((t) => t.killed)],
  ];
  const header = ['trials with', 'trials', ...COLUMNS, 'failed trials'];
  const row = (name: string, group: readonly TrialResult[]) => [
    name,
    group.length,
    ...COLUMNS.map((c) => group.filter((t) => t.violations.some((v) => v.invariant === c)).length),
    group.filter((t) => t.violations.length > 0 || t.error).length,
  ];
  const rows = groups.filter(([, g]) => g.length > 0).map(([name, g]) => row(name, g));
  const total = row('total', trials);
  const widths = header.map((h, i) => Math.max(h.length, ...[...rows, total].map((r) => String(r[i]).length)));
  const line = (cells: readonly (string | number)[]) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line), rule, line(total)].join('\n');
}

/**
 * Each invariant's breaking trials, `perInvariant` of them with up to three findings each:
 * seed, partition, faults, what was expected and what was found.
 */
export function outsideDetails(trials: readonly TrialResult[], perInvariant: number): string[] {
  const lines = COLUMNS.flatMap((invariant) => {
    const broke = trials.filter((t) => t.violations.some((v) => v.invariant === invariant));
    if (broke.length === 0) return [];
    const findings = broke.reduce((sum, t) => sum + t.violations.filter((v) => v.invariant === invariant).length, 0);
    const shown = broke.slice(0, perInvariant).flatMap((t) => {
      const mine = t.violations.filter((v) => v.invariant === invariant);
      return [
        `  seed ${t.seed} ${t.partition} [${t.faults.join(' ') || 'no fault'}${t.killed ? ', lived thru a kill' : ''}]`,
        ...mine.slice(0, 3).flatMap((v) => [`      expected: ${v.expected}`, `      found:    ${v.found}`]),
        ...(mine.length > 3 ? [`      ... and ${mine.length - 3} more findings`] : []),
      ];
    });
    return [`${invariant}: ${broke.length} trials, ${findings} findings: ${OUTSIDE_INVARIANTS[invariant]}`, ...shown, ...(broke.length > perInvariant ? [`  ... and ${broke.length - perInvariant} more trials`] : [])];
  });
  const errors = trials.filter((t) => t.error).map((t) => `  seed ${t.seed}: harness error: ${t.error}`);
  return [...lines, ...(errors.length > 0 ? ['harness errors (the trial could not be run or checked):', ...errors] : [])];
}

export function failingTrials(trials: readonly TrialResult[]): number {
  return trials.filter((t) => t.violations.length > 0 || t.error).length;
}

/** How many decisions of each outcome the run produced: what the faults reached. */
export function outcomeCounts(trials: readonly TrialResult[]): string {
  const counts = new Map<string, number>();
  for (const t of trials) for (const o of t.outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
  return [...counts].sort().map(([o, n]) => `${o} ${n}`).join(', ') || 'none';
}
