/**
 * A problem found while loading a contract: data, not an exception, so a loader can report every
 * problem in a file at once. Positions are 1-based, as editors show them.
 */
export type ProblemCode =
  | 'yaml_syntax'
  | 'duplicate_key'
  | 'too_many_aliases'
  | 'too_large'
  | 'too_deep'
  | 'unknown_key'
  | 'missing_key'
  | 'wrong_type'
  | 'invalid_value'
  | 'invalid_regex'
  | 'rule_not_for_type'
  | 'min_greater_than_max'
  | 'unknown_column'
  | 'duplicate_column'
  | 'freshness_column_missing'
  | 'sunset_required'
  | 'name_mismatch'
  /** A setting the contract leaves out, taken from the caller's ContractDefaults (a warning). */
  | 'default_used'
  /** A source the importer cannot turn into a contract, or a rule (or ODCS table) the gate cannot carry. */
  | 'not_convertible'
  | 'not_enforced'
  /** Import: a value the source does not give, written as a placeholder to fill in. */
  | 'placeholder'
  /** Two keys of which only one may be written (`on_violation`: row_tolerance or max_invalid_rows). */
  | 'conflicting_keys'
  /** `sla.warn_lag_hours` at or above `max_lag_hours`: the warning would never come first. */
  | 'warn_not_below_max'
  /** A `severity` for a rule the column, schema or SLA does not declare (a warning). */
  | 'rule_not_declared'
  /** A column whose `references` names its own contract and itself. */
  | 'self_reference'
  /** Lint: the referenced contract is not among the files linted nor beside the file (a warning). */
  | 'reference_not_found'
  /** Lint: `references.column` is not a column of the referenced contract. */
  | 'reference_unknown_column'
  /** Lint: the referencing and the referenced column hold different kinds of values. */
  | 'reference_type_mismatch'
  /** Lint: the referenced contract's `sla.max_rows` is above MAX_REFERENCE_KEYS. */
  | 'reference_too_large'
  /** Lint: the referenced contract sets no `sla.max_rows`, so its size is known only at run time (a warning). */
  | 'reference_unbounded'
  /** Two `reference_rows` entries with the same key. */
  | 'duplicate_reference_row';

export interface ContractProblem {
  readonly code: ProblemCode;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Dotted path of the key, e.g. `schema.columns[2].enum`. */
  readonly path: string;
}

export function formatProblem(problem: ContractProblem): string {
  const where = `${problem.file}:${problem.line}:${problem.column}`;
  const key = problem.path ? ` ${problem.path}:` : '';
  return `${where} ${problem.severity} [${problem.code}]${key} ${problem.message}`;
}
