/**
 * Random patterns and values from a seeded generator, to compare the two pattern engines over
 * everything the grammar allows rather than over the cases someone thought of.
 */

/** Characters that tell the engines' definitions apart: line terminators, Unicode spaces, astral and lone surrogates. */
export const ALPHABET = ['a', 'b', 'A', '1', '_', '-', ' ', '\n', '\r', '\u2028', '\u00a0', '\ufeff', '\u000b', 'é', 'Ω', '😀', '\ud800', '\udc00', '.', '!'];

const ATOMS = [
  'a', 'b', 'A', '1', '-', ' ', 'é', '😀', '\\.', '\\-', '\\/', '\\n', '\\r', '\\t', '\\v', '\\f', '\\0', '\\x41', '\\u00e9', '\\u{1F600}', '\\uD83D\\uDE00',
  '\\cJ', '.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '[ab]', '[^ab]', '[a-z]', '[^\\s]', '[\\d_-]', '[\\b]', '[.\\n]', '[^]', '[]',
  '[\\u2028\\u2029]', '[😀-😂]', '\\p{L}', '\\P{Lu}', '\\p{Script=Greek}', '[\\p{Nd}a]', '[^\\p{L}\\s]', '\\p{White_Space}',
];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?', '??', '{1,3}?'];

export function randomPattern(random: () => number, depth = 0): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const roll = random();
  if (depth > 2 || roll < 0.35) return pick(ATOMS);
  if (roll < 0.5) return `${randomPattern(random, depth + 1)}${randomPattern(random, depth + 1)}${random() < 0.5 ? randomPattern(random, depth + 1) : ''}`;
  if (roll < 0.6) return `${randomPattern(random, depth + 1)}|${randomPattern(random, depth + 1)}`;
  if (roll < 0.7) return `(?:${randomPattern(random, depth + 1)})${pick(QUANTIFIERS)}`;
  if (roll < 0.8) return `(${randomPattern(random, depth + 1)})`;
  if (roll < 0.9) return `${pick(ATOMS)}${pick(QUANTIFIERS)}`;
  return pick(['^', '$', '\\b', '\\B', '(?<n>a)', '^a', 'b$']) + randomPattern(random, depth + 1);
}

export function randomValue(random: () => number, maxLength = 8): string {
  const length = Math.floor(random() * (maxLength + 1));
  return Array.from({ length }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
}
