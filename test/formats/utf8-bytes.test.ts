import { describe, expect, it } from 'vitest';
import { TEXT, utf8CodePoints } from '../../lib/formats/utf8-bytes.js';
import { seededRandom } from '../fixtures/seeded-random.js';

const UTF8 = new TextEncoder();

/** Bytes near UTF-8's edges: lead bytes of every length, continuation bytes, overlong and surrogate forms. */
const EDGES = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff, 0xbb];

describe('UTF-8 code points on bytes', () => {
  it('counts the code points of well-formed bytes and refuses exactly the bytes that do not decode and encode back to themselves', () => {
    const random = seededRandom(8);
    let wellFormed = 0;
    const wrong: string[] = [];
    for (let n = 0; n < 100_000; n++) {
      const bytes = Uint8Array.from({ length: Math.floor(random() * 6) }, () => EDGES[Math.floor(random() * EDGES.length)]!);
      const text = TEXT.decode(bytes);
      const roundTrips = Buffer.compare(UTF8.encode(text), bytes) === 0;
      const points = utf8CodePoints(bytes, 0, bytes.length);
      if (points !== (roundTrips ? [...text].length : -1)) wrong.push(Buffer.from(bytes).toString('hex'));
      if (roundTrips && bytes.some((b) => b >= 0x80)) wellFormed++;
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(wellFormed).toBeGreaterThan(500);
  });

  it('counts within a larger buffer, a leading byte-order mark as one code point', () => {
    const bytes = UTF8.encode('x\ufeffé😀日y');
    expect(utf8CodePoints(bytes, 1, bytes.length - 1)).toBe(4);
    expect(utf8CodePoints(bytes, 1, bytes.length - 2)).toBe(-1);
  });
});
