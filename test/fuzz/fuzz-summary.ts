import { pathName, type FuzzReport, type FuzzRecord } from './fuzz-run.js';
import type { Outcome } from './worker-pool.js';

const OUTCOMES: readonly Outcome[] = ['read', 'unreadable', 'TIMEOUT', 'OOM', 'CRASH'];

/** Files by mutation kind and outcome, with a total row: the table a fuzz run prints. */
export function summaryTable(report: FuzzReport): string {
  return outcomeTable('mutation', report.records, (r) => r.kind);
}

/** The same by read path, to show both readers met the damage. */
export function pathTable(report: FuzzReport): string {
  return outcomeTable('read path', report.records, (r) => pathName(r.path));
}

function outcomeTable(title: string, records: readonly FuzzRecord[], by: (r: FuzzRecord) => string): string {
  const count = (some: readonly FuzzRecord[], outcome: Outcome) => some.filter((r) => r.outcome === outcome).length;
  // A loop, not Math.max(...): spreading 10,000 values is close to the argument limit.
  const maxMs = (some: readonly FuzzRecord[]) => String(Math.round(some.reduce((most, r) => Math.max(most, r.ms), 0)));
  const row = (name: string, some: readonly FuzzRecord[]) => [name, String(some.length), ...OUTCOMES.map((o) => String(count(some, o))), maxMs(some)];
  const groups = [...new Set(records.map(by))];
  const rows = groups.map((name) => row(name, records.filter((r) => by(r) === name)));
  rows.push(row('total', records));
  return table([title, 'files', ...OUTCOMES, 'max ms'], rows);
}

/** The most common unreadable reasons, numbers blanked so alike messages group together. */
export function reasonTable(report: FuzzReport, top = 15): string {
  const counts = new Map<string, number>();
  for (const r of report.records) {
    if (r.outcome !== 'unreadable') continue;
    const reason = r.detail.replace(/\b\d+\b/g, 'N').slice(0, 110);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  const rows = [...counts].sort((a, b) => b[1] - a[1]).slice(0, top).map(([reason, n]) => [String(n), reason]);
  return table(['files', 'unreadable because'], rows);
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 || i === cells.length - 1 && header[0] === 'files' ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
