import { ANY, complement, DIGIT, DOT, range, re2Syntax, single, SPACE, union, WORD, type CodePointSet } from './code-point-set.js';

/**
 * A contract pattern as a tree: a JavaScript regular expression with the `u` flag, restricted to
 * what a linear-time engine can run. Groups leave no trace (a pattern is only ever tested), and
 * every character, class and escape becomes the set of code points it matches.
 */
export type PatternNode =
  | CharsNode
  | { readonly kind: 'sequence'; readonly items: readonly PatternNode[] }
  | { readonly kind: 'choice'; readonly options: readonly PatternNode[] }
  | { readonly kind: 'repeat'; readonly body: PatternNode; readonly min: number; readonly max: number; readonly lazy: boolean }
  | { readonly kind: 'assert'; readonly what: 'start' | 'end' | 'word' | 'not_word' };

/**
 * One character out of a set. A Unicode property (`\p{Lu}`) is not spelt out: `set` is then
 * everything (an upper bound, which is all the safety analysis needs) and `re2` is how RE2 writes
 * the class, with the property by name; RE2's Unicode tables are the ones V8 has (a test compares
 * them code point by code point).
 */
export interface CharsNode {
  readonly kind: 'chars';
  readonly set: CodePointSet;
  readonly re2?: string;
}

/** Why a pattern is not accepted, as a sentence about it. */
export class PatternRejected extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

const NO_LINEAR_ENGINE = 'patterns run on a linear-time engine, which cannot express it: a backtracking engine can take hours on a hostile value';

/**
 * Parses a pattern that `new RegExp(pattern, 'u')` has accepted. The `u` grammar is strict (no
 * legacy leniencies), so each construct has one meaning; anything unknown is rejected rather than
 * guessed at.
 */
export function parsePattern(source: string): PatternNode {
  const parser = new PatternParser(source);
  const tree = parser.disjunction();
  if (!parser.atEnd()) parser.reject(`has an unexpected "${source[parser.pos]}"`);
  return tree;
}

const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const CONTROL: Record<string, number> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };
const CLASSES: Record<string, CodePointSet> = { d: DIGIT, D: complement(DIGIT), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE) };

class PatternParser {
  pos = 0;

  constructor(private readonly source: string) {}

  atEnd(): boolean {
    return this.pos >= this.source.length;
  }

  reject(what: string, offset = this.pos, why?: string): never {
    throw new PatternRejected(`the pattern ${what} at character ${offset + 1}${why ? `; ${why}` : ''}`, offset);
  }

  disjunction(): PatternNode {
    const options = [this.alternative()];
    while (this.eat('|')) options.push(this.alternative());
    return options.length === 1 ? options[0]! : { kind: 'choice', options };
  }

  private alternative(): PatternNode {
    const items: PatternNode[] = [];
    while (!this.atEnd() && this.peek() !== '|' && this.peek() !== ')') items.push(this.term());
    return items.length === 1 ? items[0]! : { kind: 'sequence', items };
  }

  private term(): PatternNode {
    const start = this.pos;
    if (this.eat('^')) return { kind: 'assert', what: 'start' };
    if (this.eat('$')) return { kind: 'assert', what: 'end' };
    if (this.source.startsWith('\\b', start) || this.source.startsWith('\\B', start)) {
      this.pos += 2;
      return { kind: 'assert', what: this.source[start + 1] === 'b' ? 'word' : 'not_word' };
    }
    return this.quantified(this.atom());
  }

  private atom(): PatternNode {
    const c = this.peek();
    if (c === '(') return this.group();
    if (c === '[') return this.characterClass();
    if (c === '.') return this.take(1, DOT);
    if (c === '\\') return this.escape(false);
    if (SYNTAX.has(c) && c !== '/') this.reject(`has "${c}" where a character or group belongs`);
    return this.take(c.length, single(this.source.codePointAt(this.pos)!));
  }

  private take(length: number, set: CodePointSet): PatternNode {
    this.pos += length;
    return chars(set);
  }

  private group(): PatternNode {
    const start = this.pos;
    this.pos++;
    if (/^\?<?[=!]/.test(this.source.slice(this.pos, this.pos + 3))) {
      this.reject('uses a lookahead or lookbehind', start, NO_LINEAR_ENGINE);
    }
    if (this.eat('?:')) {
      // non-capturing: nothing to note
    } else if (this.eat('?<')) {
      const end = this.source.indexOf('>', this.pos);
      if (end < 0) this.reject('has an unterminated group name', start);
      this.pos = end + 1;
    } else if (this.peek() === '?') {
      this.reject('uses a group modifier this engine does not know', start);
    }
    const body = this.disjunction();
    if (!this.eat(')')) this.reject('has an unterminated group', start);
    return body;
  }

  private quantified(body: PatternNode): PatternNode {
    const start = this.pos;
    const c = this.peek();
    let bounds: [number, number] | undefined;
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      bounds = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      bounds = this.braces();
    }
    if (!bounds) return body;
    if (bounds[0] > bounds[1]) this.reject('has a repetition {n,m} with n > m', start);
    return { kind: 'repeat', body, min: bounds[0], max: bounds[1], lazy: this.eat('?') };
  }

  private braces(): [number, number] {
    const match = this.match(/\{(\d+)(,(\d*))?\}/y);
    if (!match) this.reject('has a "{" that is not a repetition {n}, {n,} or {n,m}');
    const min = Number(match[1]);
    return [min, match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3])];
  }

  private characterClass(): CharsNode {
    const start = this.pos;
    this.pos++;
    const negated = this.eat('^');
    const members: CharsNode[] = [];
    while (!this.eat(']')) {
      if (this.atEnd()) this.reject('has an unterminated character class', start);
      members.push(this.classRange());
    }
    const set = union(...members.map((member) => member.set));
    if (!members.some((member) => member.re2)) return chars(negated ? complement(set) : set);
    const spelt = members.map((member) => member.re2 ?? re2Syntax(member.set, false)).join('');
    return { kind: 'chars', set: ANY, re2: `[${negated ? '^' : ''}${spelt}]` };
  }

  /** One member of a class: a character, an escape such as `\d`, or a range `a-z`. */
  private classRange(): CharsNode {
    const from = this.classAtom();
    if (this.peek() !== '-' || this.source[this.pos + 1] === ']' || this.pos + 1 >= this.source.length) return from;
    const dash = this.pos++;
    const to = this.classAtom();
    const isOne = (node: CharsNode) => !node.re2 && node.set.length === 2 && node.set[0] === node.set[1];
    if (!isOne(from) || !isOne(to) || from.set[0]! > to.set[0]!) this.reject('has an invalid range in a character class', dash);
    return chars(range(from.set[0]!, to.set[0]!));
  }

  private classAtom(): CharsNode {
    if (this.peek() === '\\') return this.escape(true);
    const point = this.source.codePointAt(this.pos)!;
    this.pos += point > 0xffff ? 2 : 1;
    return chars(single(point));
  }

  /** An escape, `\` included; inside a class `\b` is a backspace and `\-` a dash. */
  private escape(inClass: boolean): CharsNode {
    const start = this.pos;
    const c = this.source[this.pos + 1] ?? '';
    this.pos += 2;
    if (/[1-9]/.test(c) || c === 'k') this.reject('uses a backreference', start, NO_LINEAR_ENGINE);
    if (c === 'p' || c === 'P') return this.property(c === 'P', start);
    return chars(this.characterEscape(c, inClass, start));
  }

  private characterEscape(c: string, inClass: boolean, start: number): CodePointSet {
    if (CLASSES[c]) return CLASSES[c];
    if (CONTROL[c] !== undefined) return single(CONTROL[c]);
    if (inClass && c === 'b') return single(0x08);
    if (inClass && c === '-') return single(0x2d);
    if (SYNTAX.has(c)) return single(c.charCodeAt(0));
    if (c === '0' && !/[0-9]/.test(this.peek())) return single(0);
    if (c === 'c' && /[A-Za-z]/.test(this.peek())) return single(this.source.charCodeAt(this.pos++) % 32);
    if (c === 'x') return single(this.hex(/[0-9A-Fa-f]{2}/y, start));
    if (c === 'u') return single(this.unicodeEscape(start));
    return this.reject(`has an escape "\\${c}" this engine does not know`, start);
  }

  /** `\p{Lu}`, `\p{Script=Greek}`: RE2 names general categories and scripts alike, without the `key=`. */
  private property(negated: boolean, start: number): CharsNode {
    const end = this.source.indexOf('}', this.pos);
    if (this.peek() !== '{' || end < 0) this.reject('has a \\p without {property}', start);
    const [key, value] = this.source.slice(this.pos + 1, end).split('=');
    if (value !== undefined && !['General_Category', 'gc', 'Script', 'sc'].includes(key!)) {
      this.reject(`uses the Unicode property ${key}`, start, 'the linear-time engine knows general categories and scripts: \\p{Lu}, \\p{Script=Greek}');
    }
    this.pos = end + 1;
    return { kind: 'chars', set: ANY, re2: `\\${negated ? 'P' : 'p'}{${value ?? key}}` };
  }

  /** `\uHHHH`, a surrogate pair of them (one code point under `u`), or `\u{H...}`. */
  private unicodeEscape(start: number): number {
    if (this.eat('{')) {
      const point = this.hex(/[0-9A-Fa-f]+/y, start);
      if (!this.eat('}') || point > 0x10ffff) this.reject('has an invalid \\u{...} escape', start);
      return point;
    }
    const high = this.hex(/[0-9A-Fa-f]{4}/y, start);
    if (high < 0xd800 || high > 0xdbff) return high;
    const low = this.match(/\\u(D[C-F][0-9A-F]{2})/iy);
    if (!low) return high;
    return (high - 0xd800) * 0x400 + (Number.parseInt(low[1]!, 16) - 0xdc00) + 0x10000;
  }

  private hex(digits: RegExp, start: number): number {
    const match = this.match(digits);
    if (!match) this.reject('has an invalid hexadecimal escape', start);
    return Number.parseInt(match[0], 16);
  }

  /** Matches a sticky regex here and moves past the match. */
  private match(sticky: RegExp): RegExpExecArray | null {
    sticky.lastIndex = this.pos;
    const match = sticky.exec(this.source);
    if (match) this.pos += match[0].length;
    return match;
  }

  private peek(): string {
    const point = this.source.codePointAt(this.pos);
    return point === undefined ? '' : String.fromCodePoint(point);
  }

  private eat(text: string): boolean {
    if (!this.source.startsWith(text, this.pos)) return false;
    this.pos += text.length;
    return true;
  }
}

function chars(set: CodePointSet): CharsNode {
  return { kind: 'chars', set };
}
