import type { ContractOrigin } from '../contract/model.js';
import type { RunStats } from '../checks/validate-partition.js';
import type { Report, Violation } from '../report/report.js';
import type { Drop } from './read-drop.js';

/**
 * `_REPORT.json`: the engine's report, where the batch came from, and a short summary a person
 * reads first. The same object feeds the decision record and the notification.
 */
export interface GateReport extends Omit<Report, 'contract'> {
  readonly contract: { readonly name: string; readonly version: string | null; readonly origin?: ContractOrigin };
  readonly summary: string;
  readonly warnings: readonly string[];
  readonly attempt: string;
  /** What validation fetched from the bucket; absent when the data was never read. */
  readonly stats?: RunStats;
  readonly source: {
    readonly location: string;
    readonly marker: { readonly key: string; readonly etag: string; readonly last_modified: string };
    readonly files: readonly { readonly key: string; readonly size: number; readonly etag: string }[];
  };
}

export function gateReport(report: Report | Omit<Report, 'contract'> & { contract: GateReport['contract'] }, drop: Drop, context: { location: string; attempt: string; warnings: readonly string[]; stats?: RunStats; origin?: ContractOrigin }): GateReport {
  return {
    ...report,
    ...(context.origin ? { contract: { ...report.contract, origin: context.origin } } : {}),
    ...(context.stats ? { stats: context.stats } : {}),
    summary: summarise(report.status, report.violations, context.warnings),
    warnings: context.warnings,
    attempt: context.attempt,
    source: {
      location: context.location,
      marker: { key: drop.marker.key, etag: drop.marker.etag, last_modified: drop.marker.lastModified.toISOString() },
      files: drop.files.map((f) => ({ key: f.key, size: f.size, etag: f.etag })),
    },
  };
}

/** A report for a drop the engine never read: no contract, a retired version, a bad path or manifest. */
export function refusal(contract: GateReport['contract'], drop: Drop, violation: Violation, checkedAt: string): Omit<Report, 'contract'> & { contract: GateReport['contract'] } {
  return {
    status: 'fail',
    contract,
    rows: 0,
    files: drop.files.map((f) => ({ path: f.key, rows: 0, bytes: f.size })),
    violations: [violation],
    checked_at: checkedAt,
  };
}

function summarise(status: Report['status'], violations: readonly Violation[], warnings: readonly string[]): string {
  if (status === 'pass') return warnings.length > 0 ? `passed with ${warnings.length} warning(s): ${warnings.join('; ')}` : 'passed: no violations';
  const top = violations.slice(0, 3).map((v) => `${v.rule}${v.column ? ` ${v.column}` : ''} (${v.count})`);
  const more = violations.length > 3 ? `, and ${violations.length - 3} more` : '';
  return `failed: ${violations.length} ${violations.length === 1 ? 'violation' : 'violations'}: ${top.join(', ')}${more}`;
}
