import { RE2JS } from 're2js';
import { re2Syntax } from './code-point-set.js';
import { PatternRejected, type PatternNode } from './pattern-syntax.js';

/**
 * Writes a pattern tree in RE2 syntax with nothing left to interpretation: every class as explicit
 * code point ranges (Unicode properties by name), `^` and `$` as `\A` and `\z`. RE2's own `.` and `\s` differ from JavaScript's
 * (`.` matches `\r`, `\s` is ASCII), so spelling the sets out is what makes both engines agree.
 */
export function toRe2Syntax(node: PatternNode): string {
  switch (node.kind) {
    case 'chars':
      return node.re2 ?? re2Syntax(node.set);
    case 'sequence':
      return node.items.map((item) => (item.kind === 'choice' || item.kind === 'sequence' ? `(?:${toRe2Syntax(item)})` : toRe2Syntax(item))).join('');
    case 'choice':
      return node.options.map(toRe2Syntax).join('|');
    case 'repeat':
      return `(?:${toRe2Syntax(node.body)})${quantifier(node.min, node.max)}${node.lazy ? '?' : ''}`;
    case 'assert':
      return { start: '\\A', end: '\\z', word: '\\b', not_word: '\\B' }[node.what];
  }
}

/** Compiles a tree for RE2, or rejects it with RE2's reason (it repeats at most 1,000 times, for one). */
export function compileRe2(node: PatternNode): RE2JS {
  try {
    return RE2JS.compile(toRe2Syntax(node));
  } catch (error) {
    throw new PatternRejected(`the pattern cannot run on the linear-time engine RE2: ${(error as Error).message}`, 0);
  }
}

function quantifier(min: number, max: number): string {
  if (max === Infinity) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}
