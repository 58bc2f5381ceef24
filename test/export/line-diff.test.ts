import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../lib/export/line-diff.js';
import { pick, randomInt, seededRandom } from '../fixtures/seeded-random.js';

const LABELS = { old: 'committed', new: 'generated' };
const lines = (count: number, edit: (n: number) => string = String) => Array.from({ length: count }, (_, n) => edit(n + 1)).join('\n') + '\n';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', LABELS)).toBe('');
  });

  it('shows a changed line with three lines of context and the ranges of each side', () => {
    const diff = unifiedDiff(lines(20), lines(20, (n) => (n === 10 ? 'ten' : String(n))), LABELS);
    expect(diff).toBe(['--- committed', '+++ generated', '@@ -7,7 +7,7 @@', ' 7', ' 8', ' 9', '-10', '+ten', ' 11', ' 12', ' 13', ''].join('\n'));
  });

  it('joins changes closer than twice the context into one hunk and keeps distant ones apart', () => {
    const near = unifiedDiff(lines(30), lines(30, (n) => (n === 10 || n === 15 ? `${n}!` : String(n))), LABELS);
    expect(near.match(/^@@/gm)).toHaveLength(1);
    const far = unifiedDiff(lines(30), lines(30, (n) => (n === 5 || n === 25 ? `${n}!` : String(n))), LABELS);
    expect(far.match(/^@@.*$/gm)).toEqual(['@@ -2,7 +2,7 @@', '@@ -22,7 +22,7 @@']);
  });

  it('aligns inserted and removed lines, naming the line before an empty side as diff -u does', () => {
    expect(unifiedDiff('a\nb\nc\n', 'a\nx\nb\nc\n', LABELS)).toBe(['--- committed', '+++ generated', '@@ -1,3 +1,4 @@', ' a', '+x', ' b', ' c', ''].join('\n'));
    expect(unifiedDiff('', 'a\nb\n', LABELS)).toContain('@@ -0,0 +1,2 @@\n+a\n+b\n');
    expect(unifiedDiff('a\nb\nc\nd\n', 'b\nd\n', LABELS)).toContain('@@ -1,4 +1,2 @@\n-a\n b\n-c\n d\n');
  });

  it('keeps two edits far apart in a long text to two small hunks', () => {
    const diff = unifiedDiff(lines(20_000), lines(20_000, (n) => (n === 100 || n === 19_900 ? `${n}!` : String(n))), LABELS);
    expect(diff.match(/^@@.*$/gm)).toEqual(['@@ -97,7 +97,7 @@', '@@ -19897,7 +19897,7 @@']);
    expect(diff.split('\n')).toHaveLength(2 + 2 * 9 + 1);
  });

  it('is a diff of the two texts: its kept and removed lines are the old text, its kept and added lines the new', () => {
    const random = seededRandom(31);
    for (let trial = 0; trial < 300; trial++) {
      const text = () => Array.from({ length: randomInt(random, 0, 30) }, () => pick(random, ['a', 'b', 'c', 'd'])).join('\n') + '\n';
      const [before, after] = [text(), text()];
      const body = unifiedDiff(before, after, LABELS, 1_000).split('\n').slice(3, -1);
      if (before === after) continue;
      expect(body.filter((l) => !l.startsWith('+')).map((l) => l.slice(1)).join('\n') + '\n').toBe(before === '\n' ? '\n' : before);
      expect(body.filter((l) => !l.startsWith('-')).map((l) => l.slice(1)).join('\n') + '\n').toBe(after);
    }
  });
});
