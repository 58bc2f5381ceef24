import { describe, expect, it } from 'vitest';
import { valueRulesFor } from '../../lib/checks/value-rules.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { ColumnSpec } from '../../lib/contract/model.js';
import { compilePattern, patternProblem } from '../../lib/contract/pattern-matcher.js';
import { cpuTimed } from './cpu-time.js';
import { EVIL_PATTERNS } from './evil-patterns.js';

const ATTACK_LENGTH = 100_000;
const PER_PATTERN_MS = 100;

const refused = EVIL_PATTERNS.filter((e) => e.refused);
const runnable = EVIL_PATTERNS.filter((e) => !e.refused);

describe('200 catastrophically backtracking patterns', () => {
  it('are 200, of which 40 use backreferences or lookarounds', () => {
    expect(EVIL_PATTERNS).toHaveLength(200);
    expect(new Set(EVIL_PATTERNS.map((e) => e.pattern)).size).toBe(200);
    expect(refused).toHaveLength(40);
  });

  it('refuses every backreference and lookaround at load, saying why', () => {
    for (const { pattern } of refused) {
      expect(patternProblem(pattern), pattern).toMatch(/^the pattern uses a (backreference|lookahead or lookbehind) at character \d+; patterns run on a linear-time engine, which cannot express it/);
    }
  });

  it('runs every other one on the linear-time engine, each within 100 ms on a 100 KB hostile value', () => {
    const times = runnable.map(({ pattern, attack }) => {
      const matcher = compilePattern(pattern);
      expect(matcher.engine, pattern).toBe('re2');
      const value = attack(ATTACK_LENGTH);
      return { pattern, ms: cpuTimed(() => matcher.test(value)).ms };
    });
    const slow = times.filter((t) => t.ms >= PER_PATTERN_MS);
    expect(slow).toEqual([]);
  });

  it('agrees with the native engine on short hostile values, where backtracking still finishes', () => {
    for (const { pattern, attack } of runnable) {
      for (const length of [0, 1, 4, 8]) {
        const value = attack(length);
        expect(compilePattern(pattern).test(value), `${pattern} on ${JSON.stringify(value)}`).toBe(new RegExp(pattern, 'u').test(value));
      }
    }
  });

  it('checks a column of hostile values through the pattern rule without stalling', () => {
    const { contract } = parseContract(
      'name: orders\nversion: 1.0.0\nowner: { team: t, notify: [a@example.com] }\nproduces: { format: parquet }\n' +
        'schema:\n  columns:\n    - { name: code, type: string, pattern: "^(\\\\w+\\\\s?)*$" }\n',
      'contracts/orders.v1.yaml',
    );
    const [rule] = valueRulesFor(contract!.schema.columns[0]!, { at: 0, text: "1970-01-01T00:00:00.000Z", due: false });
    const value = `${'word '.repeat(20_000)}!`;
    const { result, ms } = cpuTimed(() => Array.from({ length: 10 }, () => rule!.fails(value)));
    expect(result).toEqual(Array(10).fill(true));
    expect(ms).toBeLessThan(10 * PER_PATTERN_MS);
  });

  it('fails every value, saying why, for a refused pattern that reached the checks by another road', () => {
    const column = { name: 'code', type: { kind: 'string' }, typeText: 'string', required: false, unique: false, pattern: '^(a+)+\\1$' } as ColumnSpec;
    const [rule] = valueRulesFor(column, { at: 0, text: "1970-01-01T00:00:00.000Z", due: false });
    expect(rule!.detail).toMatch(/^\{count\} \{row\|rows\} of code cannot be checked against \/\^\(a\+\)\+\\1\$\/: the pattern uses a backreference/);
    const { result, ms } = cpuTimed(() => rule!.fails(`${'a'.repeat(100_000)}!`));
    expect(result).toBe(true);
    expect(ms).toBeLessThan(PER_PATTERN_MS);
  });

  it('refuses a hostile pattern in a contract with a positioned problem', () => {
    const text = 'name: orders\nversion: 1.0.0\nowner: { team: t, notify: [a@example.com] }\nproduces: { format: parquet }\n' +
      'schema:\n  columns:\n    - { name: code, type: string, pattern: "^(a+)\\\\1$" }\n';
    const { problems } = parseContract(text, 'contracts/orders.v1.yaml');
    expect(problems).toEqual([expect.objectContaining({ code: 'invalid_regex', path: 'schema.columns[0].pattern', line: 7, column: 44 })]);
    expect(problems[0]?.message).toBe('the pattern uses a backreference at character 6; patterns run on a linear-time engine, which cannot express it: a backtracking engine can take hours on a hostile value');
  });
});
