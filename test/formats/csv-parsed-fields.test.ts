import { describe, it } from 'vitest';
import { expectParsedLikeText } from './csv-parsed-reference.js';

/**
 * The CSV reader parses fields from their bytes (text-number-bytes.ts, text-timestamp-bytes.ts)
 * and leaves anything it does not take to the engine's text rules. Tens of thousands of fields,
 * in the shapes writers emit and near misses of them, must read exactly as the text rules read
 * them: the same value (Object.is, so -0 stays -0 and a fraction of a millisecond counts), the
 * same INVALID.
 */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

type Draw = () => number;
const pick = <T>(draw: Draw, items: readonly T[]): T => items[Math.floor(draw() * items.length)]!;
const digits = (draw: Draw, count: number): string => Array.from({ length: count }, () => String(Math.floor(draw() * 10))).join('');
const two = (draw: Draw, max: number): string => String(Math.floor(draw() * (max + 1))).padStart(2, '0');

function number(draw: Draw): string {
  const sign = pick(draw, ['', '', '', '-', '+']);
  const whole = digits(draw, pick(draw, [0, 1, 1, 2, 3, 6, 10, 15, 16, 19, 22]));
  const point = draw() < 0.5 ? `.${digits(draw, pick(draw, [0, 1, 2, 2, 3, 5, 9, 12]))}` : '';
  const exponent = draw() < 0.05 ? `${pick(draw, ['e', 'E'])}${pick(draw, ['', '+', '-'])}${digits(draw, 2)}` : '';
  return `${sign}${whole}${point}${exponent}`;
}

function offset(draw: Draw): string {
  const sign = pick(draw, ['+', '-']);
  const hours = two(draw, 20);
  return pick(draw, ['', '', 'Z', 'z', `${sign}${hours}`, `${sign}${hours}${two(draw, 61)}`, `${sign}${hours}:${two(draw, 61)}`, `${sign}${hours}:${two(draw, 61)}:${two(draw, 61)}`, `${sign}${hours.slice(1)}`, `${sign}${hours}${two(draw, 59)}${two(draw, 59)}`]);
}

function timestamp(draw: Draw): string {
  // At the epoch's first second the fraction is the whole value: every bit of its rounding shows.
  if (draw() < 0.1) return `1970-01-01 00:00:00.${digits(draw, pick(draw, [1, 3, 4, 6, 7, 9]))}${pick(draw, ['', 'Z', '+00'])}`;
  const year = pick(draw, ['2026', '1970', '0044', '0000', '9999', '1900', '2000', '2100', '2024', digits(draw, 4)]);
  const date = `${year}-${two(draw, 13)}-${two(draw, 32)}`;
  if (draw() < 0.15) return date;
  const seconds = draw() < 0.8 ? `:${two(draw, 61)}${draw() < 0.6 ? `.${digits(draw, pick(draw, [0, 1, 3, 4, 6, 9, 10]))}` : ''}` : '';
  return `${date}${pick(draw, ['T', ' ', ' ', 't', '_'])}${two(draw, 25)}:${two(draw, 61)}${seconds}${offset(draw)}`;
}

function boolean(draw: Draw): string {
  const word = pick(draw, ['true', 'false', 't', 'f', 'yes', '1', 'tru', 'falsey']);
  return [...word].map((c) => (draw() < 0.3 ? c.toUpperCase() : c)).join('');
}

const JUNK = [' ', 'x', '.', '-', '+', ':', 'é', '٣', '\t', 'Z', 'T', '0', '9'];

/** One char replaced, inserted or deleted, now and then: the near misses. */
function mutate(draw: Draw, text: string): string {
  if (draw() > 0.2 || text.length === 0) return text;
  const at = Math.floor(draw() * text.length);
  const how = draw();
  if (how < 0.4) return `${text.slice(0, at)}${pick(draw, JUNK)}${text.slice(at + 1)}`;
  if (how < 0.7) return `${text.slice(0, at)}${pick(draw, JUNK)}${text.slice(at)}`;
  return `${text.slice(0, at)}${text.slice(at + 1)}`;
}

/** A one-column CSV of the given fields, unquoted unless a field needs quotes. */
function csvOf(fields: readonly string[]): Uint8Array {
  const field = (text: string) => (/[",\r\n]/.test(text) || text === '' ? `"${text.replaceAll('"', '""')}"` : text);
  return new TextEncoder().encode(`v\n${fields.map(field).join('\n')}\n`);
}

const SHAPES: readonly [string, (draw: Draw) => string][] = [
  ['int64', number],
  ['int32', number],
  ['float64', number],
  ['float32', number],
  ['decimal(12,2)', number],
  ['decimal(5,0)', number],
  ['decimal(38,10)', number],
  ['decimal(3,3)', number],
  ['boolean', boolean],
  ['timestamp', timestamp],
  ['timestamp_ntz', timestamp],
  ['date', timestamp],
  ['string', timestamp],
];

describe('fields parsed from bytes read as the text rules read them', () => {
  it.each(SHAPES)('%s', async (type, shape) => {
    const draw = prng(type.length * 7919 + type.charCodeAt(0));
    const fields = Array.from({ length: 6000 }, () => mutate(draw, shape(draw)));
    await expectParsedLikeText(csvOf(fields), { v: type }, [], [{}, { batchRows: 777 }]);
  });

  it('a string key hashes from its bytes as its string hashes, quoted, escaped or not', async () => {
    const draw = prng(99);
    const fields = Array.from({ length: 3000 }, () => pick(draw, ['ord_1', 'ord_1', '', 'a"b', 'x,y', 'Zoë 東京 🎉', 'multi\nline', digits(draw, 5), 'crlf\r\n']));
    await expectParsedLikeText(csvOf(fields), { v: 'string' }, ['v'], [{}, { chunkBytes: 7, batchRows: 100 }]);
  });
});
