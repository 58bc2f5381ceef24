import type { ColumnSpec } from '../contract/model.js';
import { compilePattern } from '../contract/pattern-matcher.js';
import { PatternRejected } from '../contract/pattern-syntax.js';
import { exactBound } from '../contract/exact-bounds.js';
import { compareExact, compareOrdered, integerCeil, integerFloor, toExact, type Ordered } from '../contract/exact-value.js';
import { formatBound } from '../contract/temporal.js';
import type { RuleId } from '../report/report.js';

/** The moment time rules are held to (see CheckPlan.judgedAt), and how messages name it. */
export interface JudgedAt {
  readonly at: number;
  /** e.g. `2026-11-30T05:00:00.000Z, when dt=2026-11-29 was due` */
  readonly text: string;
  /** Whether it is the partition's due time rather than the check time. */
  readonly due: boolean;
}

/** One rule on one column's non-null values; `fails` sees values already coerced to the type. */
export interface ValueRule {
  readonly rule: RuleId;
  /** Message template for the final report; `{count}` and `{one|many}` are filled in. */
  readonly detail: string;
  readonly fails: (value: unknown) => boolean;
  /** What `fails` decides for a number, for a loop over a column of doubles (check-number-column.ts). */
  readonly number?: NumberTest;
}

/**
 * `beyond`: a number strictly on the `side` of `at` (1: above, -1: below) fails, one strictly on
 * the other side passes, and `fails` decides the rest (a number on `at`, where an inexact bound
 * needs its digits, and NaN). `nan`: a number fails exactly when it is NaN.
 */
export type NumberTest = { readonly kind: 'beyond'; readonly side: 1 | -1; readonly at: number } | { readonly kind: 'nan' };

/** Compiles a column's value rules once, so the per-row work is one call per rule. */
export function valueRulesFor(column: ColumnSpec, judged: JudgedAt): ValueRule[] {
  const rows = `{count} {row|rows} of ${column.name}`;
  const rules: ValueRule[] = [];
  if (column.enum) rules.push(...enumRules(column, rows));
  if (column.min !== undefined || column.max !== undefined) rules.push(...boundRules(column, rows));
  if (column.pattern !== undefined) rules.push(patternRule(column.pattern, rows));
  if (column.minLength !== undefined || column.maxLength !== undefined) {
    rules.push(lengthRule(column, rows));
  }
  if (column.notInFuture) {
    const now = judged.at;
    rules.push({ rule: 'not_in_future', detail: `${rows} {is|are} later than ${judged.due ? judged.text : `the check time ${judged.text}`}`, fails: (v) => (typeof v === 'number' ? v > now : compareOrdered(v as Ordered, now) > 0), number: { kind: 'beyond', side: 1, at: now } });
  }
  return rules;
}

/**
 * An enum is declared on string columns only (the loaders refuse it elsewhere). Should numbers
 * arrive by another road, NaN is no member even when listed, as NaN equals nothing; and it is
 * reported as NaN rather than as an unlisted value.
 */
function enumRules(column: ColumnSpec, rows: string): ValueRule[] {
  const listed = `[${column.enum!.join(', ')}]`;
  const allowed = new Set<unknown>(column.enum);
  const detail = `${rows} {has|have} a value not in ${listed}`;
  if (column.type.kind === 'string') return [{ rule: 'enum', detail, fails: (v) => !allowed.has(v) }];
  return [{ rule: 'enum', detail, fails: (v) => v === v && !allowed.has(v) }, nanRule('enum', rows, `in ${listed}`)];
}

/**
 * `min` and `max`. A NaN is a value (it satisfies `required`) but no bound: it is counted once,
 * under `min` when the column has one and `max` otherwise, with its own message, instead of as
 * both below the minimum and above the maximum. Only floats hold NaN; other types keep the
 * negated comparison, so a NaN that should not exist still fails rather than slips through.
 */
function boundRules(column: ColumnSpec, rows: string): ValueRule[] {
  const { type } = column;
  const [min, max] = [exactBound(column, 'min'), exactBound(column, 'max')];
  const floats = type.kind === 'float32' || type.kind === 'float64';
  const rules: ValueRule[] = [];
  if (min !== undefined) {
    const detail = `${rows} {is|are} below the minimum ${formatBound(min, type)}`;
    const bound = Number(min);
    rules.push({ rule: 'min', detail, fails: floats ? (v) => (v as number) < bound : beyond(min, -1), number: { kind: 'beyond', side: -1, at: bound } });
  }
  if (max !== undefined) {
    const detail = `${rows} {is|are} above the maximum ${formatBound(max, type)}`;
    const bound = Number(max);
    rules.push({ rule: 'max', detail, fails: floats ? (v) => (v as number) > bound : beyond(max, 1), number: { kind: 'beyond', side: 1, at: bound } });
  }
  if (floats) rules.push(nanRule(min !== undefined ? 'min' : 'max', rows, boundsText(column, min, max)));
  return rules;
}

/**
 * Whether a value lies beyond a bound (side 1: above a max, -1: below a min), exactly. A number
 * is the double nearest its value (exact-value.ts), and rounding keeps order: on either side of
 * the bound's double it is on that side of the bound, and only a value on that very double needs
 * its digits. A bigint compares with the bound's whole part; an ExactValue digit by digit. Floats
 * do not come here (their bound is a double); a NaN of another type fails rather than slips by.
 */
function beyond(bound: Ordered, side: 1 | -1): (value: unknown) => boolean {
  const double = Number(bound);
  const exact = toExact(bound);
  const inexact = typeof bound !== 'number';
  const whole = side === 1 ? integerFloor(exact) : integerCeil(exact);
  return (v) => {
    if (typeof v === 'number') {
      if (side === 1 ? v < double : v > double) return false;
      if (v !== double) return true;
      return inexact && compareExact(toExact(v), exact) === side;
    }
    if (typeof v === 'bigint') return side === 1 ? v > whole : v < whole;
    return compareOrdered(v as Ordered, bound) === side;
  };
}

function boundsText({ type }: ColumnSpec, min: Ordered | undefined, max: Ordered | undefined): string {
  if (min !== undefined && max !== undefined) return `within [${formatBound(min, type)}, ${formatBound(max, type)}]`;
  return min !== undefined ? `at or above the minimum ${formatBound(min, type)}` : `at or below the maximum ${formatBound(max!, type)}`;
}

function nanRule(rule: RuleId, rows: string, wanted: string): ValueRule {
  return { rule, detail: `${rows} {is|are} NaN, which is not a number ${wanted}`, fails: (v) => v !== v, number: { kind: 'nan' } };
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
