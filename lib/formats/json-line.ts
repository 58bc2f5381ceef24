import { decimalFromText, type ExactValue } from '../contract/exact-value.js';

/**
 * JSON as writers emit it, beyond what JSON.parse takes: DuckDB's `FORMAT json` and Python's
 * json module write `NaN`, `Infinity` and `-Infinity` bare, and DuckDB writes BIGINT as integer
 * literals that a double cannot hold, which JSON.parse would round (two ids becoming one), and
 * DECIMAL(38,x) as numbers with more digits than a double keeps (read exactly, as ExactValue).
 * Lines with neither take the plain JSON.parse path; only lines that need it are rewritten.
 */

/** A number literal of 16 significant digits (a point may sit among them) may be more than a double holds; shorter ones never are. */
const LONG_DIGITS = /(?:\d\.?){16}/;
const BARE_NON_FINITE = /NaN|Infinity/;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const NON_FINITE_TOKENS = ['NaN', '-Infinity', 'Infinity'] as const;
/** Marks a rewritten top-level value; JSON text cannot hold a raw NUL, only `\u0000`. */
const MARK = '\u0000';

/** Parses one line; throws JSON.parse's error, about the line as written, when it is no JSON. */
export function parseJsonLine(text: string): unknown {
  if (!LONG_DIGITS.test(text)) {
    try {
      return JSON.parse(text);
    } catch (error) {
      if (!BARE_NON_FINITE.test(text)) throw error;
    }
  }
  // A line that spells out a NUL could hold a string that looks like a mark: take it as it is.
  if (text.includes('\\u0000')) return JSON.parse(text);
  const rewritten = rewriteTokens(text);
  if (rewritten === text) return JSON.parse(text);
  let value: unknown;
  try {
    value = JSON.parse(rewritten);
  } catch {
    return JSON.parse(text);
  }
  return reviveTopLevel(value);
}

/**
 * Outside strings: bare NaN/±Infinity become strings, and long integer literals a double cannot
 * hold exactly become marked strings, at the top level only (nested values are never checked
 * as numbers, they only show in samples). One pass, no backtracking, whatever the line.
 */
function rewriteTokens(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2d || c === 0x4e || c === 0x49 || (c >= 0x30 && c <= 0x39)) {
      const token = tokenAt(text, i);
      if (token === undefined) continue;
      const replacement = replace(token, depth === 1);
      if (replacement !== undefined) {
        parts.push(text.slice(copied, i), replacement);
        copied = i + token.length;
      }
      i += token.length - 1;
    }
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** The index of the quote that closes the string opening at `open` (the last index if none). */
export function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  return text.length - 1;
}

function tokenAt(text: string, i: number): string | undefined {
  for (const token of NON_FINITE_TOKENS) if (text.startsWith(token, i)) return token;
  NUMBER.lastIndex = i;
  const match = NUMBER.exec(text);
  return match?.[0] || undefined;
}

function replace(token: string, topLevel: boolean): string | undefined {
  if ((NON_FINITE_TOKENS as readonly string[]).includes(token)) return topLevel ? JSON.stringify(MARK + token) : JSON.stringify(token);
  const isLongInteger = topLevel && token.length >= 16 && /^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token));
  const isLongDecimal = topLevel && !isLongInteger && LONG_DIGITS.test(token) && /[.eE]/.test(token);
  return isLongInteger || isLongDecimal ? JSON.stringify(MARK + token) : undefined;
}

/** Turns the marked values of a line's object back into numbers and bigints. */
function reviveTopLevel(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const item = object[key];
    if (typeof item === 'string' && item.startsWith(MARK)) object[key] = revive(item.slice(1));
  }
  return object;
}

function revive(token: string): number | bigint | ExactValue {
  if (token === 'NaN') return NaN;
  if (token === 'Infinity') return Infinity;
  if (token === '-Infinity') return -Infinity;
  return /^-?\d+$/.test(token) ? BigInt(token) : (decimalFromText(token) ?? Number(token));
}
