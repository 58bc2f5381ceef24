/**
 * The one result object of a run. The CLI prints it, the gate stores it as `_REPORT.json` and
 * summarises it in `_SUCCESS`, and notifications quote it. Its JSON shape is a public interface.
 */
export type RuleId =
  | 'no_contract'
  | 'retired'
  | 'bad_partition'
  | 'manifest'
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
  | 'freshness';

/**
 * Report order: what stops the gate from reading at all (no contract, a retired version, a path
 * or a manifest that does not fit), what stops reading first, then schema, then values, then the partition. */
export const RULE_ORDER: readonly RuleId[] = [
  'no_contract', 'retired', 'bad_partition', 'manifest', 'changed_during_validation', 'unreadable', 'missing_column', 'unexpected_column', 'type', 'required', 'enum', 'min', 'max',
  'pattern', 'length', 'not_in_future', 'unique', 'grain', 'min_rows', 'max_rows', 'freshness',
];

export type SampleValue = string | number | boolean | null | { readonly [column: string]: SampleValue };

export interface Sample {
  readonly file: string;
  /** 0-based row within the file; null when the violation is about the whole file. */
  readonly row: number | null;
  readonly value: SampleValue;
}

export interface Violation {
  readonly rule: RuleId;
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

export interface Report {
  readonly status: 'pass' | 'fail';
  readonly contract: { readonly name: string; readonly version: string };
  readonly rows: number;
  readonly files: readonly FileSummary[];
  readonly violations: readonly Violation[];
  readonly checked_at: string;
}

export const MAX_SAMPLES = 5;
