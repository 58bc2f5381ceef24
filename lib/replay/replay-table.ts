import type { Violation } from '../report/report.js';
import { describeViolation } from '../report/text-report.js';
import { verdictChanged, type ReplayedPartition } from './replay-entry.js';
import type { ReplayRun } from './replay-history.js';
import { plural } from './replay-summary.js';

/** Violations detailed under a partition whose verdict would change; the JSON has them all. */
const DETAILED = 3;
const HEADER = ['PARTITION', 'ATTEMPT', 'THEN', 'REPLAYED', 'ROWS', 'WHY'] as const;

/** The replay for a terminal: what was judged, one row per partition, then the summary. */
export function formatReplayText(run: ReplayRun): string {
  const rows = run.partitions.map(tableRow);
  const widths = HEADER.map((title, column) => Math.max(title.length, ...rows.map((row) => row.cells[column]!.length)));
  const line = (cells: readonly string[]) => `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}`.trimEnd();
  const table = rows.length === 0 ? [] : [line(HEADER), ...rows.flatMap((row) => [line(row.cells), ...row.details])];
  const footnote = run.partitions.some((p) => p.timeBasis !== 'partition') ? ["  * placed in time by the gate's decision, as its path does not fit the contract's partition template"] : [];
  return `${[headline(run), ...table, ...footnote, '', ...run.summary.lines].join('\n')}\n`;
}

function headline(run: ReplayRun): string {
  const { published, released, quarantined } = run.summary;
  const judged = [
    plural(published.replayed, 'published partition'),
    ...(released.replayed > 0 ? [plural(released.replayed, 'released partition')] : []),
    ...(run.quarantined ? [plural(quarantined.replayed, 'quarantined attempt')] : []),
  ];
  return `replay of ${run.contract.name} ${run.contract.version} over ${run.location}, ${run.window.asked}: ${judged.join(' and ')}, each judged as of the gate's decision`;
}

function tableRow(partition: ReplayedPartition): { cells: string[]; details: string[] } {
  const { entry, report, replayed, then } = partition;
  const changed = verdictChanged(partition);
  const cells = [
    `${entry.partition}${partition.timeBasis === 'partition' ? '' : ' *'}`,
    entry.attempt ?? '-',
    then,
    changed ? replayed.toUpperCase() : replayed,
    report ? report.rows.toLocaleString('en-US') : '-',
    why(partition),
  ];
  const details = changed && report ? detailLines(report.violations, entry.folder) : [];
  return { cells, details };
}

function why(partition: ReplayedPartition): string {
  if (partition.replayed === 'unreadable') return partition.problem ?? 'unreadable';
  const violations = partition.report?.violations ?? [];
  if (violations.length === 0) return partition.then === 'published' ? 'passes' : `passes now (then: ${partition.entry.thenSummary ?? partition.then})`;
  const top = violations.slice(0, DETAILED).map((v) => `${v.rule}${v.column ? ` ${v.column}` : ''} (${v.count.toLocaleString('en-US')})`);
  const more = violations.length > DETAILED ? `, and ${violations.length - DETAILED} more` : '';
  return `${plural(violations.length, 'violation')}: ${top.join(', ')}${more}`;
}

/** The top violations as `validate` prints them, one sample each, files named within the partition. */
function detailLines(violations: readonly Violation[], folder: string): string[] {
  const shown = violations.slice(0, DETAILED).map((violation) => ({
    ...violation,
    samples: violation.samples.slice(0, 1).map((sample) => ({ ...sample, file: sample.file.startsWith(folder) ? sample.file.slice(folder.length) : sample.file })),
  }));
  const lines = shown.flatMap(describeViolation).map((line) => `    ${line}`);
  if (violations.length > DETAILED) lines.push(`      … and ${plural(violations.length - DETAILED, 'more violation')} (--format json lists them all)`);
  return lines;
}
