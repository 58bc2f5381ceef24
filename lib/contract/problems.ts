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
  | 'placeholder';

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
