import type { Random } from './random-tools.js';

/** Strings a column holds, and the pattern or enum they keep (see pattern-shapes.ts, string-shapes.ts). */
export interface StringShape {
  readonly pattern?: string;
  readonly enum?: readonly string[];
  readonly good: (r: Random) => string;
  /** A value that breaks the pattern or enum. */
  readonly bad?: (r: Random) => string;
  /** Whether good values are diverse enough for a unique column. */
  readonly roomy: boolean;
}

/** Characters of every UTF-8 length, astral ones (two UTF-16 units), combining marks, CSV specials. */
const ALPHABET = ['a', 'b', 'z', 'Q', '0', '7', ' ', '-', '_', 'é', 'ß', 'Ω', '中', '文', '😀', '𝄞', '\u0301', ',', '"', "'", '\\', '\t'];
const RARE = ['\n', '\r\n'];

/** Text of `minLength` to `maxLength` characters from every corner of the alphabet, line breaks rarely. */
export function freeText(r: Random, minLength: number, maxLength: number): string {
  const length = r.between(minLength, maxLength);
  let text = '';
  for (let i = 0; i < length; i++) text += r.chance(0.01) ? r.pick(RARE) : r.pick(ALPHABET);
  return text;
}
