import type { Random } from './random-tools.js';
import { freeText, type StringShape } from './string-shape.js';

/*
 * String shapes that keep a pattern. Some are chains contract-gate runs natively; others (groups
 * under repetition, alternation, `\b`) it runs on RE2, and those use `.`, `\s` and `\p{..}`,
 * where RE2's own meaning differs from the JavaScript one the README promises.
 */

/** `count` characters of `from`, by code point: an astral character is never split in two. */
function letters(r: Random, from: string, count: number): string {
  const points = [...from];
  let text = '';
  for (let i = 0; i < count; i++) text += points[r.int(points.length)];
  return text;
}

const HEX = '0123456789abcdef';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

export function hexId(r: Random): StringShape {
  const prefix = r.pick(['ord', 'usr', 'sku']);
  const n = r.between(4, 10);
  const good = (rr: Random) => `${prefix}_${letters(rr, HEX, n)}`;
  const bad = (rr: Random) => rr.pick([
    () => `${prefix}_${letters(rr, HEX, n).toUpperCase()}X`,
    () => `${prefix}_${letters(rr, HEX, n - 1)}`,
    () => `zz_${letters(rr, HEX, n)}`,
    () => `${good(rr)} `,
  ])();
  return { pattern: `^${prefix}_[0-9a-f]{${n}}$`, good, bad, roomy: n >= 6 };
}

function capitalWord(): StringShape {
  const good = (r: Random) => `${letters(r, 'ABCXYZ', 1)}${letters(r, LOWER, r.between(1, 8))}`;
  const bad = (r: Random) => r.pick([() => letters(r, LOWER, 4), () => `A${r.int(10)}b`, () => `Ab${letters(r, LOWER, 9)}`, () => 'Éa'])();
  return { pattern: '^[A-Z][a-z]{1,8}$', good, bad, roomy: true };
}

function containsDigit(): StringShape {
  const good = (r: Random) => `${freeText(r, 0, 5)}${r.int(10)}${freeText(r, 0, 5)}`.replace(/[\n\r]/g, '');
  const bad = (r: Random) => letters(r, `${LOWER}é中😀 `, r.between(0, 8));
  return { pattern: '[0-9]', good, bad, roomy: true };
}

function colorCode(): StringShape {
  const good = (r: Random) => `${r.pick(['red', 'green', 'blue'])}-${letters(r, DIGITS, r.between(1, 6))}`;
  const bad = (r: Random) => r.pick(['yellow-1', 'red-', 'red-1x', 'Red-1', ' blue-2'])!;
  return { pattern: '^(red|green|blue)-[0-9]+$', good, bad, roomy: true };
}

function accented(): StringShape {
  const good = (r: Random) => `${'é'.repeat(r.between(1, 3))}${letters(r, LOWER, r.between(0, 6))}`;
  const bad = (r: Random) => r.pick(['e', 'ea', 'É', 'e\u0301a'])!;
  return { pattern: '^é+[a-z]*$', good, bad, roomy: true };
}

function digitGroups(): StringShape {
  const good = (r: Random) => `${letters(r, DIGITS, 3)}-${letters(r, DIGITS, r.between(2, 4))}`;
  const bad = (r: Random) => r.pick(['abc-12', '123-1', '1234-56', '١٢٣-45'])!;
  return { pattern: '^\\d{3}-\\d{2,4}$', good, bad, roomy: true };
}

function noComma(): StringShape {
  const good = (r: Random) => freeText(r, 0, 12).replace(/[,\n\r]/g, '');
  const bad = (r: Random) => `${good(r)},${good(r)}`;
  return { pattern: '^[^,]*$', good, bad, roomy: true };
}

/** JavaScript's `\s` includes no-break and ideographic spaces and the BOM; RE2's is ASCII only. */
const SPACES = [' ', '\t', '\u00a0', '\u2003', '\u3000', '\ufeff'];

function spacedWords(): StringShape {
  const word = (r: Random) => letters(r, `${LOWER}é中😀`, r.between(1, 5));
  const good = (r: Random) => Array.from({ length: r.between(1, 4) }, () => word(r)).join(r.pick(SPACES));
  const bad = (r: Random) => r.pick([() => `${word(r)}${r.pick(SPACES)}${r.pick(SPACES)}${word(r)}`, () => `${r.pick(SPACES)}${word(r)}`, () => ''])();
  return { pattern: '^(\\S+\\s)*\\S+$', good, bad, roomy: true };
}

/** JavaScript's `.` (with `u`) is any code point but \n, \r, U+2028 and U+2029; RE2's takes \r. */
function anyButBreaks(): StringShape {
  const good = (r: Random) => letters(r, `${LOWER}é😀𝄞 \n`, r.between(1, 8));
  const bad = (r: Random) => r.pick([() => `a\rb`, () => `x\u2028`, () => letters(r, LOWER, 9), () => ''])();
  return { pattern: '^(?:.|\\n){1,8}$', good, bad, roomy: true };
}

function capitalized(): StringShape {
  const word = (r: Random) => `${letters(r, 'ABÉΩЖ', 1)}${letters(r, 'abéωж', r.between(0, 4))}`;
  const good = (r: Random) => Array.from({ length: r.between(1, 3) }, () => word(r)).join('');
  const bad = (r: Random) => r.pick(['abc', 'Ab1', 'A b', 'ǅa', '中'])!;
  return { pattern: '^(\\p{Lu}\\p{Ll}*)+$', good, bad, roomy: true };
}

function wholeWord(): StringShape {
  const good = (r: Random) => r.pick(['end', 'the end', 'end.', 'éend', `${letters(r, LOWER, 3)} end ${letters(r, LOWER, 2)}`]);
  const bad = (r: Random) => r.pick(['endless', 'bend', 'ending', '_end', 'END'])!;
  return { pattern: '\\bend\\b', good, bad, roomy: false };
}

export const PATTERN_SHAPES = [capitalWord, containsDigit, colorCode, accented, digitGroups, noComma, spacedWords, anyButBreaks, capitalized, wholeWord];
