import type { FuzzReport, FuzzRecord } from './fuzz-run.js';
import type { Outcome } from './worker-pool.js';

const OUTCOMES: readonly Outcome[] = ['read', 'unreadable', 'TIMEOUT', 'OOM', 'CRASH'];

/** Files by mutation kind and outcome, with a total row: the table a fuzz run prints. */
export function summaryTable(report: FuzzReport): string {
  const kinds = [...new Set(report.records.map((r) => r.kind))];
  const count = (records: FuzzRecord[], outcome: Outcome) => records.filter((r) => r.outcome === outcome).length;
  const rows = kinds.map((kind) => {
    const records = report.records.filter((r) => r.kind === kind);
    return [kind, String(records.length), ...OUTCOMES.map((o) => String(count(records, o))), `${Math.round(Math.max(...records.map((r) => r.ms)))}`];
  });
  rows.push(['total', String(report.records.length), ...OUTCOMES.map((o) => String(count(report.records, o))), `${Math.round(Math.max(0, ...report.records.map((r) => r.ms)))}`]);
  return table(['mutation', 'files', ...OUTCOMES, 'max ms'], rows);
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
