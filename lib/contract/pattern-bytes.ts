import type { CodePointSet } from './code-point-set.js';
import type { PatternNode } from './pattern-syntax.js';

/** `matchBytes` could not decide: the value holds a byte past ASCII, so it is decoded and tested as text. */
export const UNDECIDED = -1;

/**
 * A contract pattern run on a value's UTF-8 bytes, as RegExp#test runs it on the decoded text.
 * An ASCII byte decodes to the one code point it is, so on a value of ASCII bytes only the
 * ASCII members of each character set matter, whatever else the pattern names: the matcher is
 * exact there, and says UNDECIDED at the first byte past ASCII.
 */
export interface BytePattern {
  /** 1 when bytes [start, end) match, 0 when not, UNDECIDED when a byte is past ASCII. */
  matchBytes(bytes: Uint8Array, start: number, end: number): number;
  /** The same on a decoded value: 1 or 0 when every UTF-16 unit is ASCII (one byte each), UNDECIDED at the first that is not. */
  matchText(value: string): number;
}

/** Positions a compiled pattern may have (its size is bounded at load, see MAX_PATTERN_SIZE): past this, the regex engine runs it. */
const MAX_POSITIONS = 8192;
/** Cached DFA states; the cache starts over past this, so memory stays bounded whatever the values. */
const MAX_STATES = 2048;

/**
 * Compiles a pattern tree to a lazily built DFA over ASCII bytes (a Glushkov automaton whose
 * state sets are cached as they are met): one table look-up per byte, no backtracking. Anchors
 * are understood at the start (`^`) and end (`$`) of the pattern or of a top-level alternative;
 * undefined for a pattern with an anchor elsewhere, a word boundary or a Unicode property, which
 * the regex engine keeps.
 */
export function compileBytePattern(tree: PatternNode): BytePattern | undefined {
  const builder = new Glushkov();
  for (const option of tree.kind === 'choice' ? tree.options : [tree]) {
    const items = flattenSequence(option);
    let from = 0;
    let to = items.length;
    while (from < to && isAssert(items[from]!, 'start')) from++;
    while (to > from && isAssert(items[to - 1]!, 'end')) to--;
    const body = builder.sequence(items.slice(from, to));
    if (!body) return undefined;
    builder.addOption(body, from > 0, to < items.length);
  }
  if (builder.positions > MAX_POSITIONS) return undefined;
  return new LazyDfa(builder);
}

function flattenSequence(node: PatternNode): PatternNode[] {
  return node.kind === 'sequence' ? node.items.flatMap(flattenSequence) : [node];
}

function isAssert(node: PatternNode, what: 'start' | 'end'): boolean {
  return node.kind === 'assert' && node.what === what;
}

/** A piece of the automaton: the positions it can start and end on, and whether it can match nothing. */
interface Fragment {
  readonly first: readonly number[];
  readonly last: readonly number[];
  readonly nullable: boolean;
}

/** Position 0 starts the anchored options (only before the first byte), 1 the floating ones (before every byte). */
const START_ANCHORED = 0;
const START_FLOATING = 1;

class Glushkov {
  positions = 2;
  /** Each position's ASCII members as four 32-bit words; the starts match nothing. */
  readonly sets: Uint32Array[] = [new Uint32Array(4), new Uint32Array(4)];
  readonly follow: number[][] = [[], []];
  /** Positions after which the pattern has matched, wherever the value goes on / only where it ends. */
  readonly acceptAnywhere: number[] = [];
  readonly acceptAtEnd: number[] = [];
  floating = false;

  addOption(body: Fragment, anchoredStart: boolean, anchoredEnd: boolean): void {
    const start = anchoredStart ? START_ANCHORED : START_FLOATING;
    if (!anchoredStart) this.floating = true;
    this.follow[start]!.push(...body.first);
    const accepting = anchoredEnd ? this.acceptAtEnd : this.acceptAnywhere;
    accepting.push(...body.last);
    if (body.nullable) accepting.push(start);
  }

  sequence(items: readonly PatternNode[]): Fragment | undefined {
    let result: Fragment = { first: [], last: [], nullable: true };
    for (const item of items) {
      const next = this.node(item);
      if (!next) return undefined;
      result = this.concat(result, next);
    }
    return result;
  }

  private node(node: PatternNode): Fragment | undefined {
    if (this.positions > MAX_POSITIONS) return undefined;
    switch (node.kind) {
      case 'chars':
        return node.re2 === undefined ? this.chars(node.set) : undefined;
      case 'sequence':
        return this.sequence(node.items);
      case 'choice':
        return this.choice(node.options);
      case 'repeat':
        return this.repeat(node.body, node.min, node.max);
      case 'assert':
        return undefined;
    }
  }

  private chars(set: CodePointSet): Fragment {
    const words = new Uint32Array(4);
    for (let i = 0; i < set.length && set[i]! < 128; i += 2) {
      for (let point = set[i]!; point <= Math.min(set[i + 1]!, 127); point++) words[point >>> 5]! |= 1 << (point & 31);
    }
    const position = this.positions++;
    this.sets.push(words);
    this.follow.push([]);
    return { first: [position], last: [position], nullable: false };
  }

  private choice(options: readonly PatternNode[]): Fragment | undefined {
    const fragments: Fragment[] = [];
    for (const option of options) {
      const fragment = this.node(option);
      if (!fragment) return undefined;
      fragments.push(fragment);
    }
    return { first: fragments.flatMap((f) => f.first), last: fragments.flatMap((f) => f.last), nullable: fragments.some((f) => f.nullable) };
  }

  /** `x{m,n}` as m copies of x and n - m optional ones; `x{m,}` as m copies and a star. */
  private repeat(body: PatternNode, min: number, max: number): Fragment | undefined {
    let result: Fragment = { first: [], last: [], nullable: true };
    const copies = max === Infinity ? min : max;
    for (let i = 0; i < copies; i++) {
      const copy = this.node(body);
      if (!copy) return undefined;
      result = this.concat(result, i < min ? copy : { ...copy, nullable: true });
    }
    if (max !== Infinity) return result;
    const star = this.node(body);
    if (!star) return undefined;
    for (const end of star.last) this.follow[end]!.push(...star.first);
    return this.concat(result, { ...star, nullable: true });
  }

  private concat(a: Fragment, b: Fragment): Fragment {
    for (const end of a.last) this.follow[end]!.push(...b.first);
    return {
      first: a.nullable ? [...a.first, ...b.first] : a.first,
      last: b.nullable ? [...a.last, ...b.last] : b.last,
      nullable: a.nullable && b.nullable,
    };
  }
}

/** What a DFA state does to a scan: goes on, has matched whatever follows, or can never match. */
const GO_ON = 0;
const MATCHED = 1;
const DEAD = 2;

/**
 * The automaton's state sets as DFA states, made the first time a value leads to one. Each state
 * is a bit set of positions; its successor on a byte class is the union of its positions' follow
 * sets, cut to the positions whose set holds the byte.
 */
class LazyDfa implements BytePattern {
  private readonly words: number;
  private readonly follow: Uint32Array[];
  private readonly classOf = new Uint8Array(128);
  private readonly classMasks: Uint32Array[] = [];
  private readonly acceptAnywhere: Uint32Array;
  private readonly acceptAtEnd: Uint32Array;
  private readonly floating: boolean;
  private ids = new Map<string, number>();
  private sets: Uint32Array[] = [];
  private table: Int32Array;
  private stop: Uint8Array;
  private final: Uint8Array;

  constructor(automaton: Glushkov) {
    const count = automaton.positions;
    this.words = (count + 31) >>> 5;
    this.follow = automaton.follow.map((targets) => this.bits(targets));
    this.acceptAnywhere = this.bits(automaton.acceptAnywhere);
    this.acceptAtEnd = this.bits(automaton.acceptAtEnd);
    this.floating = automaton.floating;
    this.byteClasses(automaton.sets);
    this.table = new Int32Array(MAX_STATES * this.classMasks.length).fill(-1);
    this.stop = new Uint8Array(MAX_STATES);
    this.final = new Uint8Array(MAX_STATES);
    this.restart();
  }

  matchBytes(bytes: Uint8Array, start: number, end: number): number {
    const { classOf, stop, classMasks } = this;
    const classes = classMasks.length;
    let state = 0;
    if (stop[0] !== GO_ON) return stop[0] === MATCHED ? 1 : 0;
    for (let i = start; i < end; i++) {
      const byte = bytes[i]!;
      if (byte >= 128) return UNDECIDED;
      const byteClass = classOf[byte]!;
      let next = this.table[state * classes + byteClass]!;
      if (next < 0) next = this.successor(state, byteClass);
      state = next;
      const stopping = stop[state]!;
      if (stopping !== GO_ON) return stopping === MATCHED ? 1 : 0;
    }
    return this.final[state]!;
  }

  // matchBytes' loop over UTF-16 units: a separate loop, as one reading either through a callback is slower on both.
  matchText(value: string): number {
    const { classOf, stop, classMasks } = this;
    const classes = classMasks.length;
    let state = 0;
    if (stop[0] !== GO_ON) return stop[0] === MATCHED ? 1 : 0;
    for (let i = 0; i < value.length; i++) {
      const unit = value.charCodeAt(i);
      if (unit >= 128) return UNDECIDED;
      const unitClass = classOf[unit]!;
      let next = this.table[state * classes + unitClass]!;
      if (next < 0) next = this.successor(state, unitClass);
      state = next;
      const stopping = stop[state]!;
      if (stopping !== GO_ON) return stopping === MATCHED ? 1 : 0;
    }
    return this.final[state]!;
  }

  /** Bytes with the same membership in every position's set share a class (and a table column). */
  private byteClasses(sets: readonly Uint32Array[]): void {
    const signatures = new Map<string, number>();
    for (let byte = 0; byte < 128; byte++) {
      const holding: number[] = [];
      sets.forEach((words, position) => {
        if ((words[byte >>> 5]! >>> (byte & 31)) & 1) holding.push(position);
      });
      const signature = holding.join(',');
      let byteClass = signatures.get(signature);
      if (byteClass === undefined) {
        byteClass = this.classMasks.length;
        signatures.set(signature, byteClass);
        this.classMasks.push(this.bits(holding));
      }
      this.classOf[byte] = byteClass;
    }
  }

  private bits(positions: readonly number[]): Uint32Array {
    const words = new Uint32Array(this.words);
    for (const position of positions) words[position >>> 5]! |= 1 << (position & 31);
    return words;
  }

  /** Empties the cache; the start state is state 0 again. */
  private restart(): void {
    this.ids = new Map();
    this.sets = [];
    this.table.fill(-1);
    this.intern(this.bits(this.floating ? [START_ANCHORED, START_FLOATING] : [START_ANCHORED]));
  }

  private successor(state: number, byteClass: number): number {
    const from = this.sets[state]!;
    const reach = new Uint32Array(this.words);
    for (let w = 0; w < this.words; w++) {
      for (let word = from[w]!; word !== 0; word &= word - 1) {
        const targets = this.follow[(w << 5) + 31 - Math.clz32(word & -word)]!;
        for (let v = 0; v < this.words; v++) reach[v]! |= targets[v]!;
      }
    }
    const mask = this.classMasks[byteClass]!;
    for (let v = 0; v < this.words; v++) reach[v]! &= mask[v]!;
    if (this.floating) reach[0]! |= 1 << START_FLOATING;
    if (this.sets.length >= MAX_STATES) this.restart();
    const next = this.intern(reach);
    // After a restart `state` is gone: the next value starts from 0 and rebuilds what it needs.
    if (this.sets[state] === from) this.table[state * this.classMasks.length + byteClass] = next;
    return next;
  }

  private intern(set: Uint32Array): number {
    const key = set.join(',');
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.sets.length;
    this.ids.set(key, id);
    this.sets.push(set);
    const anywhere = overlaps(set, this.acceptAnywhere);
    this.stop[id] = anywhere ? MATCHED : set.every((word) => word === 0) ? DEAD : GO_ON;
    this.final[id] = anywhere || overlaps(set, this.acceptAtEnd) ? 1 : 0;
    return id;
  }
}

function overlaps(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < a.length; i++) if ((a[i]! & b[i]!) !== 0) return true;
  return false;
}
