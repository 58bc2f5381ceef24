import type { PatternNode } from './pattern-syntax.js';

/** What one Unicode property reference costs RE2 to compile, in steps: its table of ranges is built and merged. */
const PROPERTY_STEPS = 50;

/**
 * The size of the program RE2 compiles a pattern to, in steps: repetitions multiply (`a{1000}`
 * is 1,000 steps), so a short pattern can be a large program, and each `\p{...}` adds its table
 * once. Compiling costs time per step, and the linear-time engine's cost per character of a value
 * grows with the program too, so sizes are bounded per pattern and per contract.
 */
export function patternSize(node: PatternNode): number {
  return steps(node) + PROPERTY_STEPS * properties(node);
}

function steps(node: PatternNode): number {
  switch (node.kind) {
    case 'chars':
    case 'assert':
      return 1;
    case 'sequence':
      return node.items.reduce((sum, item) => sum + steps(item), 0);
    case 'choice':
      return node.options.reduce((sum, option) => sum + steps(option) + 1, 0);
    case 'repeat':
      return steps(node.body) * (node.max === Infinity ? node.min + 1 : node.max) + 1;
  }
}

function properties(node: PatternNode): number {
  switch (node.kind) {
    case 'chars':
      return node.re2?.match(/\\[pP]\{/g)?.length ?? 0;
    case 'assert':
      return 0;
    case 'sequence':
      return node.items.reduce((sum, item) => sum + properties(item), 0);
    case 'choice':
      return node.options.reduce((sum, option) => sum + properties(option), 0);
    case 'repeat':
      return properties(node.body);
  }
}
