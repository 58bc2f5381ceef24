import { intersects, union, type CodePointSet } from './code-point-set.js';
import type { PatternNode } from './pattern-syntax.js';

/** One position of a flattened pattern: a set of characters taken `min` to `max` times. */
interface Step {
  readonly set: CodePointSet;
  readonly min: number;
  readonly max: number;
}

/** Longer chains go to RE2: an unanchored pattern costs the backtracker up to its length at every start position. */
const MAX_STEPS = 256;

/**
 * Whether a backtracking engine provably runs the pattern in time linear in the value, so the
 * native RegExp may run it. Conservative: a pattern qualifies only when it is a chain of character
 * sets, each taken a fixed or a variable number of times, and
 *  - anchored with `^`: each variable step is disjoint from every set that can come right after
 *    it. The engine then never has a choice: a character either continues the step or must start
 *    the next, so giving one back fails at once, and every character is consumed and returned at
 *    most once (`^ord_[0-9a-f]{8}$`, `^[A-Z]{2,3}-\d+$`);
 *  - not anchored: no variable step at all and at most MAX_STEPS characters long, so each start
 *    position costs at most that (`\.csv$`).
 * Alternation, groups under a variable repetition, and `\b` are left to RE2: they are where
 * nested and overlapping quantifiers (`(a+)+`, `(a|aa)+`, `\w*\w*`) hide.
 */
export function isBacktrackSafe(tree: PatternNode): boolean {
  const items = tree.kind === 'sequence' ? [...tree.items] : [tree];
  const anchored = isAssert(items[0], 'start');
  if (anchored) items.shift();
  if (isAssert(items.at(-1), 'end')) items.pop();
  const steps = flatten(items);
  if (!steps || steps.length > MAX_STEPS) return false;
  if (!anchored) return steps.every((step) => step.min === step.max) && steps.reduce((sum, step) => sum + step.max, 0) <= MAX_STEPS;
  return steps.every((step, i) => step.min === step.max || !intersects(step.set, follow(steps, i)));
}

function isAssert(node: PatternNode | undefined, what: 'start' | 'end'): boolean {
  return node?.kind === 'assert' && node.what === what;
}

/** The steps of a chain, or undefined for anything that is not one. A fixed repetition is its body written out that often. */
function flatten(nodes: readonly PatternNode[], steps: Step[] = []): Step[] | undefined {
  for (const node of nodes) {
    if (steps.length > MAX_STEPS) return steps;
    if (node.kind === 'chars') steps.push({ set: node.set, min: 1, max: 1 });
    else if (node.kind === 'sequence') {
      if (!flatten(node.items, steps)) return undefined;
    } else if (node.kind === 'repeat' && node.body.kind === 'chars') steps.push({ set: node.body.set, min: node.min, max: node.max });
    else if (node.kind === 'repeat' && node.min === node.max) {
      if (!unroll(node.body, node.min, steps)) return undefined;
    } else return undefined;
  }
  return steps;
}

function unroll(body: PatternNode, times: number, steps: Step[]): Step[] | undefined {
  const once = flatten([body]);
  if (!once) return undefined;
  for (let i = 0; i < times && steps.length <= MAX_STEPS; i++) steps.push(...once);
  return steps;
}

/** Every character that can come right after step `i`: the sets up to and including the next step that must match. */
function follow(steps: readonly Step[], i: number): CodePointSet {
  const sets: CodePointSet[] = [];
  for (let j = i + 1; j < steps.length; j++) {
    sets.push(steps[j]!.set);
    if (steps[j]!.min > 0) break;
  }
  return union(...sets);
}
