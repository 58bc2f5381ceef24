import { describe, expect, it } from 'vitest';
import { compileBytePattern, UNDECIDED } from '../../lib/contract/pattern-bytes.js';
import { compilePattern, patternProblem } from '../../lib/contract/pattern-matcher.js';
import { parsePattern } from '../../lib/contract/pattern-syntax.js';
import { seededRandom } from '../fixtures/seeded-random.js';
import { randomPattern, randomValue } from '../hostile/random-patterns.js';

const TEXT = new TextDecoder('utf-8', { ignoreBOM: true });
const UTF8 = new TextEncoder();

/** ASCII-heavy atoms, so most patterns compile to bytes and most values stay ASCII. */
const ATOMS = ['a', 'b', 'A', 'Z', '0', '9', '-', '_', ' ', '.', '\\.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '[a-f0-9]', '[^a-f]', '[A-Z]', '[^]', '[]', '\\n', '\\t', '[\\d_-]', 'é', '[^é]', '\\x41', '\\u0062'];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{0,2}', '{1,}', '{3}', '{1,3}', '*?', '+?'];
const BYTES = [0x61, 0x62, 0x41, 0x5a, 0x30, 0x39, 0x2d, 0x5f, 0x20, 0x2e, 0x0a, 0x0d, 0x09, 0x00, 0x7f];

function asciiPattern(random: () => number, depth = 0): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const roll = random();
  if (depth > 3 || roll < 0.3) return pick(ATOMS);
  if (roll < 0.5) return `${asciiPattern(random, depth + 1)}${asciiPattern(random, depth + 1)}`;
  if (roll < 0.6) return `${asciiPattern(random, depth + 1)}|${asciiPattern(random, depth + 1)}`;
  if (roll < 0.75) return `(?:${asciiPattern(random, depth + 1)})${pick(QUANTIFIERS)}`;
  if (roll < 0.85) return `${pick(ATOMS)}${pick(QUANTIFIERS)}`;
  if (roll < 0.92) return `^${asciiPattern(random, depth + 1)}$`;
  return pick(['^', '$', '(^a)', 'b$', '^(?:a|b$)', '\\b']) + asciiPattern(random, depth + 1);
}

/** Mostly ASCII bytes over the atoms' characters; sometimes UTF-8, malformed bytes or a byte-order mark. */
function randomBytes(random: () => number): Uint8Array {
  const roll = random();
  if (roll < 0.1) return UTF8.encode(randomValue(random));
  const length = Math.floor(random() * 10);
  const bytes = Array.from({ length }, () => BYTES[Math.floor(random() * BYTES.length)]!);
  if (roll < 0.2 && length > 0) bytes[Math.floor(random() * length)] = [0xc3, 0xa9, 0xff, 0xef, 0xbb, 0xbf, 0xe2, 0x80][Math.floor(random() * 8)]!;
  return Uint8Array.from(bytes);
}

/** The byte matcher's verdict, the regex engine's where it cannot decide, as the check loop takes it. */
function onBytes(pattern: string, bytes: Uint8Array, start = 0, end = bytes.length): { verdict: boolean; decided: boolean } | undefined {
  const matcher = compileBytePattern(parsePattern(pattern));
  if (!matcher) return undefined;
  const result = matcher.matchBytes(bytes, start, end);
  if (result === UNDECIDED) return { verdict: compilePattern(pattern).test(TEXT.decode(bytes.subarray(start, end))), decided: false };
  return { verdict: result === 1, decided: true };
}

describe('the byte matcher', () => {
  it('agrees with RegExp#test on 4,000 random patterns over ASCII, UTF-8 and malformed bytes and their decoded text, as does the contract pattern matcher that now uses it', () => {
    const random = seededRandom(32_2026);
    let compiled = 0;
    let decided = 0;
    const disagreements: string[] = [];
    for (let n = 0; n < 4000; n++) {
      const pattern = n % 4 === 3 ? randomPattern(random) : asciiPattern(random);
      if (patternProblem(pattern) !== undefined) continue;
      // RegExp#test itself, not compilePattern: that now runs ASCII values through this matcher.
      const reference = new RegExp(pattern, 'u');
      const matcher = compileBytePattern(parsePattern(pattern));
      if (!matcher) continue;
      compiled++;
      for (let k = 0; k < 16; k++) {
        const bytes = k === 0 ? new Uint8Array(0) : randomBytes(random);
        // Within a larger buffer, as values lie in a page.
        const padded = Uint8Array.from([0x61, 0x2d, ...bytes, 0x62]);
        const result = matcher.matchBytes(padded, 2, 2 + bytes.length);
        const expected = reference.test(TEXT.decode(bytes));
        if (result !== UNDECIDED) decided++;
        if (result !== UNDECIDED && (result === 1) !== expected) disagreements.push(`/${pattern}/ on ${JSON.stringify(TEXT.decode(bytes))}: bytes say ${result}`);
        const onText = matcher.matchText(TEXT.decode(bytes));
        if (onText !== UNDECIDED && (onText === 1) !== expected) disagreements.push(`/${pattern}/ on ${JSON.stringify(TEXT.decode(bytes))}: text says ${onText}`);
        if (compilePattern(pattern).test(TEXT.decode(bytes)) !== expected) disagreements.push(`/${pattern}/ on ${JSON.stringify(TEXT.decode(bytes))}: compilePattern says ${!expected}`);
      }
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
    expect(compiled).toBeGreaterThan(2500);
    expect(decided).toBeGreaterThan(30_000);
  });

  it('matches as RegExp#test does: a search unless anchored, anchors per top-level alternative', () => {
    const cases: [string, string, boolean][] = [
      ['^[A-Z]{3}-[0-9]{4}$', 'ABC-1234', true],
      ['^[A-Z]{3}-[0-9]{4}$', 'abc-1234', false],
      ['^[A-Z]{3}-[0-9]{4}$', 'ABC-12345', false],
      ['[0-9]{4}', 'x1234y', true],
      ['\\.csv$', 'a.csv', true],
      ['\\.csv$', 'a.csv.gz', false],
      ['^a|b$', 'xxb', true],
      ['^a|b$', 'xax', false],
      ['', '', true],
      ['^$', '', true],
      ['^$', 'a', false],
      ['^.{0,3}$', 'a\nb', false],
      ['(?:ab|a)(?:bc)?$', 'xabc', true],
    ];
    for (const [pattern, value, expected] of cases) {
      expect(onBytes(pattern, UTF8.encode(value)), `/${pattern}/ on ${value}`).toEqual({ verdict: expected, decided: true });
    }
  });

  it('leaves a value with a byte past ASCII to the regex engine, which sees it decoded', () => {
    expect(onBytes('^.{3}$', UTF8.encode('aé'))).toEqual({ verdict: false, decided: false });
    expect(onBytes('^.{2}$', UTF8.encode('aé'))).toEqual({ verdict: true, decided: false });
    expect(onBytes('^a.$', Uint8Array.from([0x61, 0xff]))).toEqual({ verdict: true, decided: false });
    // Decided before the first byte past ASCII: a match found, or none possible.
    expect(onBytes('^ab', UTF8.encode('abé'))).toEqual({ verdict: true, decided: true });
    expect(onBytes('^b', UTF8.encode('aé'))).toEqual({ verdict: false, decided: true });
  });

  it('has no byte form for a word boundary, a Unicode property or an anchor inside the pattern', () => {
    for (const pattern of ['\\bord', '\\p{Lu}+', 'a(^b)', 'a$b', '(?:^a)+']) expect(compileBytePattern(parsePattern(pattern)), pattern).toBeUndefined();
  });

  it('stays exact past its cache of states, on a pattern with many of them', () => {
    // 2^12 states: the DFA's cache starts over more than once.
    const pattern = '[ab]*a[ab]{11}$';
    const reference = compilePattern(pattern);
    const matcher = compileBytePattern(parsePattern(pattern))!;
    const random = seededRandom(7);
    let wrong = 0;
    for (let n = 0; n < 6000; n++) {
      const value = Array.from({ length: 12 + Math.floor(random() * 30) }, () => (random() < 0.5 ? 'a' : 'b')).join('');
      if (matcher.matchBytes(UTF8.encode(value), 0, value.length) !== (reference.test(value) ? 1 : 0)) wrong++;
    }
    expect(wrong).toBe(0);
  });
});
