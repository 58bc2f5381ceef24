/**
 * 200 patterns that make a backtracking engine take exponential or high-polynomial time, each
 * with the value that does it: ten atoms (`a`, `\w`, `.`, `(?:a|b)`, ...) through twenty shapes of
 * nested quantifiers, overlapping alternatives, stacked stars, backreferences and lookarounds.
 */
export interface EvilPattern {
  readonly pattern: string;
  /** A value this long (plus one character) that the pattern fails on only after trying every split. */
  readonly attack: (length: number) => string;
  /** Backreferences and lookarounds: no linear-time engine can run them, so loading must refuse them. */
  readonly refused: boolean;
}

interface Atom {
  readonly source: string;
  /** A character the atom matches, to repeat... */
  readonly pump: string;
  /** ...and one it does not, to make the match fail at the very end. */
  readonly spoiler: string;
}

const ATOMS: readonly Atom[] = [
  { source: 'a', pump: 'a', spoiler: '!' },
  { source: '\\w', pump: 'a', spoiler: '!' },
  { source: '[a-z]', pump: 'a', spoiler: '!' },
  { source: '.', pump: 'a', spoiler: '\n' },
  { source: '\\d', pump: '1', spoiler: 'x' },
  { source: '[^!]', pump: 'a', spoiler: '!' },
  { source: '\\S', pump: 'a', spoiler: ' ' },
  { source: '[\\w.]', pump: 'a', spoiler: '!' },
  { source: '(?:a|b)', pump: 'a', spoiler: '!' },
  { source: '\\p{L}', pump: 'a', spoiler: '1' },
];

const SHAPES: readonly ((x: string) => string)[] = [
  (x) => `(${x}+)+$`,
  (x) => `(${x}*)*$`,
  (x) => `(${x}+)*$`,
  (x) => `((${x}+)+)+$`,
  (x) => `(${x}|${x})+$`,
  (x) => `(${x}|${x}${x})+$`,
  (x) => `(${x}|${x}?)+$`,
  (x) => `(${x}|${x}{2}|${x}{3})+$`,
  (x) => `(${x}+|${x}+${x})+$`,
  (x) => `^(${x}+\\s?)*$`,
  (x) => `^(.*${x}){12}$`,
  (x) => `^(${x}?){25}${x}{25}$`,
  (x) => `${x}*${x}*${x}*${x}*${x}*${x}*$`,
  (x) => `^(${x}+${x}+)+$`,
  (x) => `(${x}{1,10}){1,10}$`,
  (x) => `^(?:${x}+|${x})*(?:${x}|${x}+)*$`,
  (x) => `^(${x}+)\\1*$`,
  (x) => `(?=(${x}+)+$)`,
  (x) => `(?<=${x}+)!`,
  (x) => `^(?!(${x}+)+$)`,
];

const REFUSED = /\\1|\(\?[=!<]/;

export const EVIL_PATTERNS: readonly EvilPattern[] = SHAPES.flatMap((shape) =>
  ATOMS.map((atom) => {
    const pattern = shape(atom.source);
    return { pattern, attack: (length: number) => atom.pump.repeat(length) + atom.spoiler, refused: REFUSED.test(pattern) };
  }),
);
