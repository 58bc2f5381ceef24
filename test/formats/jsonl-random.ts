import { bytesOf } from '../fixtures/table-files.js';

/**
 * Random JSON Lines for the readers' tests: flat objects of every value kind with keys in any
 * order (repeated, escaped, unknown), and now and then a line that is no object, broken JSON,
 * invalid UTF-8, a raw control character, a blank line, CRLF, a byte order mark.
 */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

export const TYPES = { id: 'int64', n: 'int32', amount: 'decimal(12,2)', ratio: 'float64', ok: 'boolean', at: 'timestamp', local: 'timestamp_ntz', day: 'date', name: 'string' };
const NAMES = Object.keys(TYPES);

const VALUES: readonly string[] = [
  '1', '-0', '0', '12', '-7', '2147483648', '9007199254740993', '12345678901234567890', '1.5', '-0.50', '0.37', '100.10', '1e-7', '1E+2', '-0.0', '3.14159265358979',
  '"2026-11-29 10:00:00.5+00"', '"2026-11-29T10:00:00Z"', '"2026-11-29T10:00:00"', '"2026-11-29"', '"x"', '""', '"Zoë"', '"東京"', '"a\\"b"', '"\\u00e9"', '"tab\\tx"',
  'true', 'false', 'null', '[1,2]', '{"a":1}', 'NaN', '-Infinity', '"12"', '"1.25"', '"nan"', '"NULL"',
];
const KEYS: readonly string[] = [...NAMES, 'extra', 'other', 'na\\u006de', '__proto__', 'namf', 'nam', 'names', 'i', 'iD'];

function member(draw: () => number, key = KEYS[Math.floor(draw() * KEYS.length)]!): string {
  const value = VALUES[Math.floor(draw() * VALUES.length)]!;
  const space = draw() < 0.1 ? ' ' : '';
  return `"${key}"${space}:${space}${value}`;
}

/** The members of a line: most lines spell a file's keys in its one order, as writers do. */
function members(draw: () => number, layout: readonly string[]): string[] {
  if (draw() < 0.7) return layout.map((key) => member(draw, key));
  return Array.from({ length: Math.floor(draw() * 9) }, () => member(draw));
}

export function randomJsonl(draw: () => number): Uint8Array {
  const parts: (string | readonly number[])[] = draw() < 0.1 ? [[0xef, 0xbb, 0xbf]] : [];
  const lines = 30 + Math.floor(draw() * 150);
  const layout = Array.from({ length: Math.floor(draw() * 9) }, () => KEYS[Math.floor(draw() * KEYS.length)]!);
  for (let line = 0; line < lines; line++) {
    const shape = draw();
    if (shape < 0.03) parts.push(draw() < 0.5 ? '' : ' \t');
    else if (shape < 0.05) parts.push(['[1]', '"s"', '{"id":1,', '{"id":01}', '{"a":1,}', '{"a" 1}'][Math.floor(draw() * 6)]!);
    else if (shape < 0.06) parts.push('{"name":"', [0xff], '"}');
    else if (shape < 0.07) parts.push('{"name":"a', [0x01], '"}');
    else parts.push(`${draw() < 0.05 ? ' ' : ''}{${members(draw, layout).join(',')}}`);
    if (line < lines - 1 || draw() < 0.7) parts.push(draw() < 0.2 ? '\r\n' : '\n');
  }
  return bytesOf(parts);
}
