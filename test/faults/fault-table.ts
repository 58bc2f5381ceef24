import type { RunReport } from './fault-run.js';
import { PAIR_SCENARIOS } from './pair-scenarios.js';
import { SCENARIOS } from './scenarios.js';
import { ENFORCED_INVARIANTS, INVARIANTS, isEnforced, type Invariant } from './violations.js';

const COLUMNS = Object.keys(INVARIANTS) as Invariant[];

/**
 * What `test:faults` prints: per scenario the runs, the handlers started, the faults they met
 * (injected errors, crashes, deadline stops), the handlers that failed, one column per enforced
 * invariant, their total, and last the notices at-most-once delivery lost (reported, not enforced).
 */
export function faultTable(reports: readonly RunReport[]): string {
  const header = ['scenario', 'runs', 'handlers', 'faults', 'failed', ...ENFORCED_INVARIANTS, 'violations', 'notice-sent'];
  const rows = [...SCENARIOS, ...PAIR_SCENARIOS].map((s) => s.name).filter((name) => reports.some((r) => r.scenario === name)).map((name) => row(name, reports.filter((r) => r.scenario === name)));
  rows.push(row('total', reports));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: readonly (string | number)[]) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(0, -1).map(line), widths.map((w) => '-'.repeat(w)).join('  '), line(rows.at(-1)!)].join('\n');
}

function row(name: string, reports: readonly RunReport[]): (string | number)[] {
  const count = (invariant: Invariant) => reports.reduce((sum, r) => sum + r.violations.filter((v) => v.invariant === invariant).length, 0);
  const stat = (key: keyof RunReport['stats']) => reports.reduce((sum, r) => sum + r.stats[key], 0);
  const enforced = ENFORCED_INVARIANTS.map(count);
  return [name, reports.length, stat('handlers'), stat('faults'), stat('failed'), ...enforced, enforced.reduce((a, b) => a + b, 0), count('notice-sent')];
}

/** A few violations of each invariant with their seeds: `FAULT_FIRST_SEED=<seed> FAULT_SEEDS=1` replays one. */
export function violationDetails(reports: readonly RunReport[], perInvariant = 5): string[] {
  return COLUMNS.flatMap((invariant) => {
    const all = reports.flatMap((r) => r.violations.filter((v) => v.invariant === invariant).map((v) => `  seed ${r.seed} ${r.scenario}: ${v.detail}`));
    if (all.length === 0) return [];
    return [`${invariant} (${all.length}): ${INVARIANTS[invariant]}`, ...all.slice(0, perInvariant), ...(all.length > perInvariant ? [`  ... and ${all.length - perInvariant} more`] : [])];
  });
}

/** Violations of the gate's invariants: what the exit code says. */
export function totalViolations(reports: readonly RunReport[]): number {
  return reports.reduce((sum, r) => sum + r.violations.filter((v) => isEnforced(v.invariant)).length, 0);
}
