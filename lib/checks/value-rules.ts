import type { ColumnSpec } from '../contract/model.js';
import { compilePattern } from '../contract/pattern-matcher.js';
import { PatternRejected } from '../contract/pattern-syntax.js';
import { formatBound, formatTimestamp } from '../contract/temporal.js';
import type { RuleId } from '../report/report.js';

/** One rule on one column's non-null values; `fails` sees values already coerced to the type. */
export interface ValueRule {
  readonly rule: RuleId;
  /** Message template for the final report; `{count}` and `{one|many}` are filled in. */
  readonly detail: string;
  readonly fails: (value: unknown) => boolean;
}

/** Compiles a column's value rules once, so the per-row work is one call per rule. */
export function valueRulesFor(column: ColumnSpec, now: number): ValueRule[] {
  const rows = `{count} {row|rows} of ${column.name}`;
  const rules: ValueRule[] = [];
  if (column.enum) {
    const allowed = new Set<unknown>(column.enum);
    rules.push({ rule: 'enum', detail: `${rows} {has|have} a value not in [${column.enum.join(', ')}]`, fails: (v) => !allowed.has(v) });
  }
  if (column.min !== undefined) {
    const min = column.min;
    rules.push({ rule: 'min', detail: `${rows} {is|are} below the minimum ${formatBound(min, column.type)}`, fails: (v) => !((v as number) >= min) });
  }
  if (column.max !== undefined) {
    const max = column.max;
    rules.push({ rule: 'max', detail: `${rows} {is|are} above the maximum ${formatBound(max, column.type)}`, fails: (v) => !((v as number) <= max) });
  }
  if (column.pattern !== undefined) rules.push(patternRule(column.pattern, rows));
  if (column.minLength !== undefined || column.maxLength !== undefined) {
    rules.push(lengthRule(column, rows));
  }
  if (column.notInFuture) {
    rules.push({ rule: 'not_in_future', detail: `${rows} {is|are} later than the check time ${formatTimestamp(now)}`, fails: (v) => (v as number) > now });
  }
  return rules;
}

/**
 * Native RegExp when the pattern provably cannot backtrack badly, the linear-time RE2 otherwise.
 * The loaders refuse any other pattern; should one arrive by another road, every value fails with
 * the reason, rather than the pattern running on an engine that can hang on one value.
 */
function patternRule(pattern: string, rows: string): ValueRule {
  try {
    const { test } = compilePattern(pattern);
    return { rule: 'pattern', detail: `${rows} {does|do} not match /${pattern}/`, fails: (v) => !test(v as string) };
  } catch (error) {
    if (!(error instanceof PatternRejected)) throw error;
    return { rule: 'pattern', detail: `${rows} cannot be checked against /${pattern}/: ${error.message}`, fails: () => true };
  }
}

function lengthRule(column: ColumnSpec, rows: string): ValueRule {
  const min = column.minLength ?? 0;
  const max = column.maxLength ?? Infinity;
  const range = column.maxLength === undefined ? `at least ${min}` : column.minLength === undefined ? `at most ${max}` : `${min} to ${max}`;
  return {
    rule: 'length',
    detail: `${rows} {is|are} not ${range} characters long`,
    fails: (v) => {
      const text = v as string;
      // UTF-16 length bounds the code-point count from above and at most doubles it, so
      // counting code points is needed only near the bounds.
      if (text.length <= max && text.length >= 2 * min) return false;
      const points = countCodePoints(text);
      return points < min || points > max;
    },
  };
}

function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdbff) count++;
  }
  return count;
}
