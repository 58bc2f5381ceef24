/**
 * What the bench compares between engines and against a shape's planted violations: per rule and
 * column, how many. Messages and samples differ between engines by design, so they are left out.
 */
export interface CommonViolation {
  readonly rule: string;
  readonly column: string | null;
  readonly count: number;
}

/** A run's outcome as the bench compares it: the verdict, the rows counted and the violations. */
export interface Verdict {
  readonly status: 'pass' | 'fail';
  readonly rows: number;
  readonly violations: readonly CommonViolation[];
}

function violationKey(v: CommonViolation): string {
  return `${v.rule}:${v.column ?? '-'}=${v.count}`;
}

/** A canonical, order-free rendering of a violation set, for comparing engines. */
export function canonical(violations: readonly CommonViolation[]): string {
  return violations.map(violationKey).sort().join(', ');
}

/** How two verdicts differ, in one line, or undefined when they agree on status, rows and every count. */
export function verdictDifference(left: Verdict, right: Verdict): string | undefined {
  const parts: string[] = [];
  if (left.status !== right.status) parts.push(`verdict ${left.status} vs ${right.status}`);
  if (left.rows !== right.rows) parts.push(`rows ${left.rows} vs ${right.rows}`);
  if (canonical(left.violations) !== canonical(right.violations)) parts.push(`violations [${canonical(left.violations)}] vs [${canonical(right.violations)}]`);
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** The verdict a shape's planted data must get: it fails exactly when something is planted. */
export function expectedVerdict(rows: number, violations: readonly CommonViolation[]): Verdict {
  return { status: violations.length === 0 ? 'pass' : 'fail', rows, violations };
}
