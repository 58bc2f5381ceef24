/** What a member's value is: decides how its bytes become a value (see jsonl-field-readers.ts). */
export const STRING = 1;
/** A string holding backslash escapes: decoded by JSON.parse of its token. */
export const ESCAPED_STRING = 2;
export const NUMBER = 3;
export const TRUE = 4;
export const FALSE = 5;
export const NULL = 6;
/** A key that is exactly its hint: the bytes `"key":` the same member had on an earlier line (see JsonKeys). */
export const HINTED_KEY = 7;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const POINT = 0x2e;

/** Bytes JSON allows between tokens; a line holds no LF. */
function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/**
 * Splits a line holding one flat JSON object into its members, from the bytes: where each key
 * and value lies and what kind of value it is. Only the common shape is taken, a `{...}` of
 * strings, numbers, true, false and null, validated as JSON.parse would; anything else (a nested
 * value, bare NaN, broken JSON) returns false, for JSON.parse and its exact error to decide.
 * Reused line after line: reading one allocates nothing.
 */
export class FlatObject {
  count = 0;
  keyStarts = new Int32Array(16);
  keyEnds = new Int32Array(16);
  /** Key token kinds: STRING or ESCAPED_STRING. */
  keyKinds = new Int32Array(16);
  valueStarts = new Int32Array(16);
  valueEnds = new Int32Array(16);
  valueKinds = new Int32Array(16);
  /** The kind of the last token passed over. */
  private lastKind = 0;

  /**
   * Reads bytes [start, end); on true, members [0, count) describe the object, quotes included in
   * string tokens. A member whose key and colon are byte for byte `hints[k]` (a key already read
   * from an earlier line, in this position) is passed over by one comparison, not tokenized.
   */
  read(b: Uint8Array, start: number, end: number, hints: readonly (Uint8Array | undefined)[] = []): boolean {
    this.count = 0;
    let p = this.skipSpace(b, start, end);
    if (p >= end || b[p] !== OPEN) return false;
    p = this.skipSpace(b, p + 1, end);
    if (p < end && b[p] === CLOSE) return this.skipSpace(b, p + 1, end) === end;
    // Every step below reads at most a byte past `end` before a bound check refuses the line.
    for (;;) {
      if (this.count === this.keyStarts.length) this.grow();
      const k = this.count++;
      this.keyStarts[k] = p;
      const hint = hints[k];
      if (hint !== undefined && startsWith(b, p, end, hint)) {
        this.keyEnds[k] = p + hint.length - 1;
        this.keyKinds[k] = HINTED_KEY;
        p = this.skipSpace(b, p + hint.length, end);
      } else {
        p = this.keyEnd(b, p, end, k);
        if (p < 0) return false;
      }
      this.valueStarts[k] = p;
      p = this.valueEnd(b, p, end);
      if (p < 0) return false;
      this.valueEnds[k] = p;
      this.valueKinds[k] = this.lastKind;
      p = this.skipSpace(b, p, end);
      if (p >= end) return false;
      if (b[p] === CLOSE) return this.skipSpace(b, p + 1, end) === end;
      if (b[p] !== COMMA) return false;
      p = this.skipSpace(b, p + 1, end);
    }
  }

  /** Past the key at `p`, its colon and the space after, for member k; -1 for no key. */
  private keyEnd(b: Uint8Array, p: number, end: number, k: number): number {
    p = this.stringEnd(b, p, end);
    if (p < 0) return -1;
    this.keyEnds[k] = p;
    this.keyKinds[k] = this.lastKind;
    p = this.skipSpace(b, p, end);
    if (p >= end || b[p] !== COLON) return -1;
    return this.skipSpace(b, p + 1, end);
  }

  private skipSpace(b: Uint8Array, p: number, end: number): number {
    while (p < end && isSpace(b[p])) p++;
    return p;
  }

  /** Past the value token at `p`, or -1 for one this reader leaves to JSON.parse. */
  private valueEnd(b: Uint8Array, p: number, end: number): number {
    if (p >= end) return -1;
    const c = b[p];
    if (c === QUOTE) return this.stringEnd(b, p, end);
    if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) return this.numberEnd(b, p, end);
    if (c === 0x74) return this.literalEnd(b, p, end, 'true', TRUE);
    if (c === 0x66) return this.literalEnd(b, p, end, 'false', FALSE);
    if (c === 0x6e) return this.literalEnd(b, p, end, 'null', NULL);
    return -1;
  }

  /**
   * Past the string token at `p` (its closing quote), or -1: unterminated, a raw control
   * character (JSON.parse refuses those), or an escape JSON does not have.
   */
  private stringEnd(b: Uint8Array, p: number, end: number): number {
    if (b[p] !== QUOTE) return -1;
    this.lastKind = STRING;
    for (p++; p < end; p++) {
      const c = b[p]!;
      // One compare for the bytes strings are mostly made of: quote and control bytes sort below them.
      if (c > QUOTE && c !== BACKSLASH) continue;
      if (c === QUOTE) return p + 1;
      if (c < 0x20) return -1;
      if (c === BACKSLASH) {
        this.lastKind = ESCAPED_STRING;
        const escape = b[++p];
        if (escape === 0x75) {
          for (let i = 1; i <= 4; i++) if (!isHexDigit(b[p + i])) return -1;
          p += 4;
        } else if (!isSimpleEscape(escape)) return -1;
      }
    }
    return -1;
  }

  /** Past the number token at `p`, in JSON's grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
  private numberEnd(b: Uint8Array, p: number, end: number): number {
    this.lastKind = NUMBER;
    if (b[p] === MINUS) p++;
    if (b[p] === ZERO) p++;
    else if (!isDigit(b[p])) return -1;
    else while (p < end && isDigit(b[p])) p++;
    if (b[p] === POINT) {
      if (!isDigit(b[++p])) return -1;
      while (p < end && isDigit(b[p])) p++;
    }
    if (b[p] === 0x65 || b[p] === 0x45) {
      p++;
      if (b[p] === 0x2b || b[p] === MINUS) p++;
      if (!isDigit(b[p])) return -1;
      while (p < end && isDigit(b[p])) p++;
    }
    return p <= end ? p : -1;
  }

  private literalEnd(b: Uint8Array, p: number, end: number, word: string, kind: number): number {
    if (p + word.length > end) return -1;
    for (let i = 1; i < word.length; i++) if (b[p + i] !== word.charCodeAt(i)) return -1;
    this.lastKind = kind;
    return p + word.length;
  }

  private grow(): void {
    const grown = (old: Int32Array) => {
      const bigger = new Int32Array(old.length * 2);
      bigger.set(old);
      return bigger;
    };
    this.keyStarts = grown(this.keyStarts);
    this.keyEnds = grown(this.keyEnds);
    this.keyKinds = grown(this.keyKinds);
    this.valueStarts = grown(this.valueStarts);
    this.valueEnds = grown(this.valueEnds);
    this.valueKinds = grown(this.valueKinds);
  }
}

function startsWith(b: Uint8Array, p: number, end: number, bytes: Uint8Array): boolean {
  if (p + bytes.length > end) return false;
  for (let i = 0; i < bytes.length; i++) if (b[p + i] !== bytes[i]) return false;
  return true;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= ZERO && c <= NINE;
}

function isHexDigit(c: number | undefined): boolean {
  return c !== undefined && ((c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}

/** `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`. */
function isSimpleEscape(c: number | undefined): boolean {
  return c === QUOTE || c === BACKSLASH || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74;
}

/**
 * A member's value from its token's bytes, as JSON.parse reads it, with json-line.ts's one
 * difference: an integer literal a double cannot hold exactly is kept as a bigint.
 */
export function jsonValue(b: Buffer, kind: number, start: number, end: number, ascii: boolean): unknown {
  switch (kind) {
    case STRING: return b.toString(ascii ? 'latin1' : 'utf8', start + 1, end - 1);
    case ESCAPED_STRING: return JSON.parse(b.toString(ascii ? 'latin1' : 'utf8', start, end)) as string;
    case NUMBER: return numberValue(b.toString('latin1', start, end));
    case TRUE: return true;
    case FALSE: return false;
    default: return null;
  }
}

function numberValue(token: string): number | bigint {
  const value = Number(token);
  return token.length >= 16 && !Number.isSafeInteger(value) && /^-?\d+$/.test(token) ? BigInt(token) : value;
}
