import { isBacktrackSafe } from './pattern-linear.js';
import { compileBytePattern, UNDECIDED, type BytePattern } from './pattern-bytes.js';
import { compileRe2 } from './pattern-re2.js';
import { patternSize } from './pattern-size.js';
import { parsePattern, PatternRejected } from './pattern-syntax.js';

/** Contract patterns are read by people; a longer one is a mistake or an attack on the compiler. */
export const MAX_PATTERN_LENGTH = 1024;
/** `^.{0,1000}$` is 1,002 steps; RE2 compiles 2,000 in a few milliseconds and scans 100 KB with them in well under 100 ms. */
export const MAX_PATTERN_SIZE = 2000;
/** All patterns of one contract together: bounds what loading one costs, however many columns it has. */
export const MAX_CONTRACT_PATTERN_SIZE = 100_000;

export interface PatternMatcher {
  /** `native` when the pattern provably cannot backtrack badly, `re2` (linear time, slower) otherwise. */
  readonly engine: 'native' | 're2';
  /** Whether the pattern matches anywhere in the value, as RegExp#test. */
  readonly test: (value: string) => boolean;
  /** Its size in steps (see patternSize). */
  readonly size: number;
}

/** What the patterns of one contract may still cost; a loader makes one per file. */
export interface PatternBudget {
  remaining: number;
}

export function contractPatternBudget(): PatternBudget {
  return { remaining: MAX_CONTRACT_PATTERN_SIZE };
}

/**
 * Compiles a contract pattern (JavaScript syntax, `u` flag) for the per-value hot path. A pattern
 * is accepted only when both engines accept it, whichever one will run it, so which patterns
 * load never depends on the safety analysis; the analysis only picks the faster engine. Throws
 * PatternRejected with the reason for a pattern that is not accepted.
 */
export function compilePattern(pattern: string, budget?: PatternBudget): PatternMatcher {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new PatternRejected(`the pattern is ${pattern.length} characters long; a pattern may be at most ${MAX_PATTERN_LENGTH}`, 0);
  let native: RegExp;
  try {
    native = new RegExp(pattern, 'u');
  } catch (error) {
    throw new PatternRejected(`invalid regular expression: ${(error as Error).message}`, 0);
  }
  const tree = parsePattern(pattern);
  const size = chargeSize(patternSize(tree), budget);
  const re2 = compileRe2(tree);
  if (isBacktrackSafe(tree)) return { engine: 'native', test: (value) => native.test(value), size };
  // An ASCII value goes through the byte DFA (pattern-bytes.ts), linear like RE2 and several times faster; RE2 takes the rest.
  // Built on the first value, so a contract's patterns load as fast as before.
  let dfa: BytePattern | false | undefined;
  const test = (value: string): boolean => {
    dfa ??= compileBytePattern(tree) ?? false;
    const matched = dfa ? dfa.matchText(value) : UNDECIDED;
    return matched === UNDECIDED ? re2.test(value) : matched === 1;
  };
  return { engine: 're2', test, size };
}

/** Checked before RE2 compiles anything, since compiling is what the size bounds. */
function chargeSize(size: number, budget: PatternBudget | undefined): number {
  if (size > MAX_PATTERN_SIZE) {
    throw new PatternRejected(`the pattern compiles to ${size} steps (repetitions multiply what they repeat, a \\p{...} counts 50); a pattern may take at most ${MAX_PATTERN_SIZE}`, 0);
  }
  if (budget && size > budget.remaining) {
    throw new PatternRejected(`the patterns of this contract compile to more than ${MAX_CONTRACT_PATTERN_SIZE} steps together; simplify them`, 0);
  }
  if (budget) budget.remaining -= size;
  return size;
}

/** Why a pattern is not accepted, as a sentence, or undefined when it is. */
export function patternProblem(pattern: string, budget?: PatternBudget): string | undefined {
  try {
    compilePattern(pattern, budget);
    return undefined;
  } catch (error) {
    if (error instanceof PatternRejected) return error.message;
    throw error;
  }
}
