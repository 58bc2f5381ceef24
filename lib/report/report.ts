/**
 * The one result object of a run. The CLI prints it, the gate stores it as `_REPORT.json` and
 * summarises it in `_SUCCESS`, and notifications quote it. Its JSON shape is a public interface.
 */
export type RuleId =
  | 'no_contract'
  | 'retired'
  | 'bad_partition'
  | 'manifest'
  | 'linked_sibling'
  | 'changed_during_validation'
  | 'unreadable'
  | 'missing_column'
  | 'unexpected_column'
  | 'type'
  | 'required'
  | 'enum'
  | 'min'
  | 'max'
  | 'pattern'
  | 'length'
  | 'not_in_future'
  | 'unique'
  | 'grain'
  | 'min_rows'
  | 'max_rows'
  | 'volume_vs_history'
  | 'freshness'
  | 'references'
  | 'reference_missing'
  | 'reference_value';

/**
 * Report order: what stops the gate from reading at all (no contract, a retired version, a path
 * or a manifest that does not fit), what stops reading first, then schema, then values, then the partition. */
export const RULE_ORDER: readonly RuleId[] = [
  'no_contract', 'retired', 'bad_partition', 'manifest', 'linked_sibling', 'changed_during_validation', 'unreadable', 'missing_column', 'unexpected_column', 'type', 'required', 'enum', 'min', 'max',
  'pattern', 'length', 'not_in_future', 'references', 'unique', 'grain', 'reference_missing', 'reference_value', 'min_rows', 'max_rows', 'volume_vs_history', 'freshness',
];

/**
 * Rules about single rows: with `on_violation` in the contract, rows breaking only these are
 * withheld (dead-lettered) and the rest published. A `type` or `unreadable` finding is row-level
 * only when it names a row (an unparseable value or line); about a whole file it is batch-level.
 */
export const ROW_LEVEL_RULES: ReadonlySet<RuleId> = new Set<RuleId>(['type', 'unreadable', 'required', 'enum', 'min', 'max', 'pattern', 'length', 'not_in_future']);

/** `error` blocks the publish; a `warning` is reported, kept in `_SUCCESS` and notified. */
export type ViolationSeverity = 'error' | 'warning';

export type SampleValue = string | number | boolean | null | { readonly [column: string]: SampleValue };

export interface Sample {
  readonly file: string;
  /** 0-based row within the file; null when the violation is about the whole file. */
  readonly row: number | null;
  readonly value: SampleValue;
}

export interface Violation {
  readonly rule: RuleId;
  readonly severity: ViolationSeverity;
  readonly column?: string;
  readonly count: number;
  readonly message: string;
  readonly samples: readonly Sample[];
}

export interface FileSummary {
  readonly path: string;
  readonly rows: number;
  readonly bytes: number;
}

/**
 * `pass`: no finding. `warn`: publishable, with warnings or with rows withheld under the contract's
 * row tolerance. `fail`: an error blocks the publish.
 */
export type ReportStatus = 'pass' | 'warn' | 'fail';

export interface Report {
  readonly status: ReportStatus;
  readonly contract: { readonly name: string; readonly version: string };
  readonly rows: number;
  readonly files: readonly FileSummary[];
  readonly violations: readonly Violation[];
  readonly checked_at: string;
  /** With `on_violation`, when every error was row-level: how many rows broke rules and how many may. */
  readonly tolerance?: ToleranceOutcome;
  /** Things a reader should know that are no violation, e.g. a rule skipped for want of history. */
  readonly notes?: readonly string[];
  /** Per column with a range rule (min, max, not_in_future), in contract order: what the data held beside what the contract allows. */
  readonly observed?: readonly ObservedRange[];
}

/**
 * The smallest and largest non-null values of a column with a range rule, as the contract writes
 * its bounds (numbers; ISO-8601 dates and timestamps). From the values read, and for row groups
 * their footer statistics settled, from those statistics. Null when the column held no value.
 */
export interface ObservedRange {
  readonly column: string;
  readonly min: string | null;
  readonly max: string | null;
  readonly allowed_min?: string;
  /** `not_in_future`: the check time. */
  readonly allowed_max?: string;
}

export interface ToleranceOutcome {
  /** Distinct rows breaking at least one error rule. */
  readonly invalid_rows: number;
  readonly allowed_rows: number;
  /** As the contract says it: `2%` or `100 rows`. */
  readonly tolerance: string;
  /** True when the invalid rows are withheld and the rest published; false when the batch is quarantined. */
  readonly withheld: boolean;
}

/** A report that lets the batch (or its valid rows) be published. */
export function isPublishable(report: Pick<Report, 'status'>): boolean {
  return report.status !== 'fail';
}

export const MAX_SAMPLES = 5;
