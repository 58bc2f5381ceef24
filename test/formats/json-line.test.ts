import { describe, expect, it } from 'vitest';
import { ExactValue } from '../../lib/contract/exact-value.js';
import { parseJsonLine } from '../../lib/formats/json-line.js';

describe('parseJsonLine', () => {
  it('keeps a number with more digits than a double holds as written, at the top level', () => {
    const line = parseJsonLine('{"d":8328513515626024801555938373.9432,"e":-922337203685477.5349,"f":1.5,"n":{"d":8328513515626024801555938373.9432}}') as Record<string, unknown>;
    expect(line.d).toBeInstanceOf(ExactValue);
    expect(String(line.d)).toBe('8328513515626024801555938373.9432');
    expect(String(line.e)).toBe('-922337203685477.5349');
    expect(line.f).toBe(1.5);
    // Nested values are never checked as numbers: JSON.parse's double is kept.
    expect((line.n as Record<string, unknown>).d).toBe(8328513515626024801555938373.9432);
  });

  it('still reads long integers as bigints and bare NaN as a number', () => {
    expect(parseJsonLine('{"id":9223372036854775807,"x":NaN}')).toEqual({ id: 9223372036854775807n, x: NaN });
  });
});
