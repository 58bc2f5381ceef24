import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { valueRulesFor } from '../../lib/checks/value-rules.js';
import { DIGIT, DOT, MAX_CODE_POINT, SPACE, WORD, type CodePointSet } from '../../lib/contract/code-point-set.js';
import type { ColumnSpec } from '../../lib/contract/model.js';
import { isBacktrackSafe } from '../../lib/contract/pattern-linear.js';
import { compilePattern, MAX_CONTRACT_PATTERN_SIZE, patternProblem } from '../../lib/contract/pattern-matcher.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import { compileRe2 } from '../../lib/contract/pattern-re2.js';
import { parsePattern } from '../../lib/contract/pattern-syntax.js';
import { cpuTimed } from './cpu-time.js';
import { seededRandom } from '../fixtures/seeded-random.js';
import { ALPHABET, randomPattern, randomValue } from './random-patterns.js';

/** Whether `set` holds exactly the code points `regex` matches, checked for every code point. */
function sameAsNative(set: CodePointSet, regex: RegExp): boolean {
  let i = 0;
  for (let point = 0; point <= MAX_CODE_POINT; point++) {
    while (i < set.length && set[i + 1]! < point) i += 2;
    const inSet = i < set.length && set[i]! <= point;
    if (inSet !== regex.test(String.fromCodePoint(point))) return false;
  }
  return true;
}

describe('the two pattern engines agree', () => {
  it.each([
    ['\\d', DIGIT],
    ['\\w', WORD],
    ['\\s', SPACE],
    ['.', DOT],
  ] as const)('on %s, code point by code point, as V8 defines it with the u flag', (escape, set) => {
    expect(sameAsNative(set, new RegExp(`^${escape}$`, 'u'))).toBe(true);
  });

  it.each(['L', 'Nd', 'Script=Greek', 'White_Space'])('on the Unicode property \\p{%s}, code point by code point', (name) => {
    const native = new RegExp(`^\\p{${name}}$`, 'u');
    const re2 = compileRe2(parsePattern(`^\\p{${name}}$`));
    let differ = 0;
    for (let point = 0; point <= MAX_CODE_POINT; point += 1) {
      const value = String.fromCodePoint(point);
      if (native.test(value) !== re2.test(value)) differ++;
    }
    expect(differ).toBe(0);
  });

  it('on 3,000 random patterns over values with line terminators, Unicode spaces, astral and lone surrogates', () => {
    const random = seededRandom(20261130);
    let compared = 0;
    for (let n = 0; n < 3000; n++) {
      const pattern = randomPattern(random);
      let native: RegExp;
      try {
        native = new RegExp(pattern, 'u');
      } catch {
        continue; // not a pattern at all: both refuse it
      }
      const problem = patternProblem(pattern);
      if (problem !== undefined) {
        expect(problem, pattern).toMatch(/repeat|backreference|lookahead/);
        continue;
      }
      const re2 = compileRe2(parsePattern(pattern));
      for (let k = 0; k < 12; k++) {
        const value = randomValue(random);
        expect(re2.test(value), `/${pattern}/u on ${JSON.stringify(value)}`).toBe(native.test(value));
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(2000);
  });

  it('on what they accept: a pattern loads only when both compile it', () => {
    expect(patternProblem('a{1001}')).toMatch(/^the pattern cannot run on the linear-time engine RE2: .*invalid repeat count/);
    expect(patternProblem('(?:[0-9a-f]{2}){600}')).toMatch(/invalid repeat count/);
    expect(patternProblem('\\p{Script_Extensions=Greek}')).toMatch(/^the pattern uses the Unicode property Script_Extensions at character 1/);
    expect(patternProblem('(?i)abc')).toMatch(/^invalid regular expression: /);
    expect(patternProblem('x'.repeat(1025))).toBe('the pattern is 1025 characters long; a pattern may be at most 1024');
    expect(patternProblem('^[\\p{L}\\d]+$')).toBeUndefined();
  });
});

describe('the size of a pattern', () => {
  it('is bounded per pattern before anything compiles it: repetitions multiply', () => {
    const { result, ms } = cpuTimed(() => patternProblem('a{1000}'.repeat(140)));
    expect(result).toBe('the pattern compiles to 140140 steps (repetitions multiply what they repeat, a \\p{...} counts 50); a pattern may take at most 2000');
    expect(ms).toBeLessThan(50);
    expect(patternProblem('^.{0,1000}$')).toBeUndefined();
  });

  it('is bounded per contract, so a thousand heavy patterns cannot make loading slow', () => {
    const columns = Array.from({ length: 200 }, (_, i) => `    - { name: c${i}, type: string, pattern: "^x${i}(?:[a-f]|[0-9]){0,400}$" }`).join('\n');
    const text = `name: orders\nversion: 1.0.0\nowner: { team: t, notify: [a@example.com] }\nproduces: { format: parquet }\nschema:\n  columns:\n${columns}\n`;
    const { result, ms } = cpuTimed(() => parseContract(text, 'contracts/orders.v1.yaml'));
    const refused = result.problems.filter((p) => p.code === 'invalid_regex');
    expect(refused.length).toBeGreaterThan(100);
    expect(refused[0]?.message).toBe(`the patterns of this contract compile to more than ${MAX_CONTRACT_PATTERN_SIZE} steps together; simplify them`);
    expect(ms).toBeLessThan(1000);
  });

  it('bounds what the linear-time engine spends per character: the largest pattern scans 100 KB in well under a second', () => {
    const matcher = compilePattern('\\p{L}{1000}');
    expect(matcher.engine).toBe('re2');
    expect(cpuTimed(() => matcher.test('a'.repeat(100_000) + '!')).ms).toBeLessThan(1000);
  });
});

describe('the engine a pattern runs on', () => {
  it.each([
    ['^ord_[0-9a-f]{8}$', 'native'],
    ['^[A-Z]{2,3}-\\d+$', 'native'],
    ['^\\d{4}-\\d{2}-\\d{2}$', 'native'],
    ['\\.csv$', 'native'],
    ['^(?:[0-9a-f]{2}){4}$', 'native'],
    ['^\\p{Lu}\\p{Ll}*$', 'native'],
    ['^[a-z]+[a-z0-9]*$', 're2'],
    ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', 're2'],
    ['[0-9]+x', 're2'],
    ['^(a|b)+$', 're2'],
    ['^\\w+\\b', 're2'],
    ['^.*.*=.*$', 're2'],
  ])('%s runs on %s', (pattern, engine) => {
    expect(compilePattern(pattern).engine).toBe(engine);
  });

  it('is native only for patterns it cannot make backtrack: 300 random ones stay linear on 20 KB hostile values', () => {
    const random = seededRandom(7);
    let checked = 0;
    while (checked < 300) {
      const pattern = randomPattern(random);
      if (patternProblem(pattern) !== undefined || !isBacktrackSafe(parsePattern(pattern))) continue;
      const native = new RegExp(pattern, 'u');
      for (const pump of ALPHABET) {
        for (const spoiler of ['!', '\n', '😀']) {
          const value = pump.repeat(20_000) + spoiler;
          expect(cpuTimed(() => native.test(value)).ms, `/${pattern}/u on ${JSON.stringify(pump)}×20000`).toBeLessThan(100);
        }
      }
      checked++;
    }
  });

  it('keeps the hot path native-fast: 1,000,000 order ids through the pattern rule cost what a bare RegExp costs', () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => (i % 10 === 0 ? `ord_${i}` : `ord_${(Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, '0')}`));
    const column = { name: 'order_id', type: { kind: 'string' }, typeText: 'string', required: true, unique: false, pattern: '^ord_[0-9a-f]{8}$' } as ColumnSpec;
    const [rule] = valueRulesFor(column, { at: 0, text: "1970-01-01T00:00:00.000Z", due: false });
    const bare = /^ord_[0-9a-f]{8}$/u;
    const re2 = RE2JS.compile('^ord_[0-9a-f]{8}$');
    const best = (run: () => number) => Math.min(...Array.from({ length: 3 }, () => cpuTimed(run).ms));
    const viaRule = best(() => values.filter((v) => rule!.fails(v)).length);
    const viaBare = best(() => values.filter((v) => !bare.test(v)).length);
    const viaRe2 = best(() => values.filter((v) => !re2.test(v)).length);
    expect(values.filter((v) => rule!.fails(v))).toHaveLength(100_000);
    expect(viaRule).toBeLessThan(viaBare * 2 + 50);
    expect(viaRule).toBeLessThan(viaRe2);
  });
});
