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
  /**
   * A quarantine folder's `_REPORT.json` only: the copies the gate made into the folder, each
   * pinned to the staged version it judged. `release` and `redrive` copy exactly these versions.
   * Absent in reports written before it was recorded.
   */
  readonly quarantined?: readonly { readonly key: string; readonly size: number; readonly etag: string }[];
}

export function gateReport(report: Report | Omit<Report, 'contract'> & { contract: GateReport['contract'] }, drop: Drop, context: { location: string; attempt: string; warnings: readonly string[]; stats?: RunStats; origin?: ContractOrigin }): GateReport {
  return {
    ...report,
    ...(context.origin ? { contract: { ...report.contract, origin: context.origin } } : {}),
    ...(context.stats ? { stats: context.stats } : {}),
    summary: summarise(report, context.warnings),
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

function summarise(report: Pick<Report, 'status' | 'violations' | 'tolerance'>, warnings: readonly string[]): string {
  const { status, violations, tolerance } = report;
  if (status === 'pass') return warnings.length > 0 ? `passed with ${warnings.length} warning(s): ${warnings.join('; ')}` : 'passed: no violations';
  if (status === 'warn') {
    const warned = violations.filter((v) => v.severity === 'warning');
    const withheld = tolerance?.withheld ? [`${tolerance.invalid_rows} invalid ${tolerance.invalid_rows === 1 ? 'row' : 'rows'} withheld (tolerance ${tolerance.tolerance})`] : [];
    const told = [...withheld, ...(warned.length > 0 ? [`${warned.length} ${warned.length === 1 ? 'warning' : 'warnings'}: ${topOf(warned)}`] : []), ...warnings];
    return `passed with ${told.join('; ')}`;
  }
  const errors = violations.filter((v) => v.severity === 'error');
  const over = tolerance && !tolerance.withheld ? `; ${tolerance.invalid_rows} invalid rows, more than the ${tolerance.allowed_rows} the tolerance ${tolerance.tolerance} allows` : '';
  return `failed: ${errors.length} ${errors.length === 1 ? 'violation' : 'violations'}: ${topOf(errors)}${over}`;
}

function topOf(violations: readonly Violation[]): string {
  const top = violations.slice(0, 3).map((v) => `${v.rule}${v.column ? ` ${v.column}` : ''} (${v.count})`);
  return `${top.join(', ')}${violations.length > 3 ? `, and ${violations.length - 3} more` : ''}`;
}
