import { describe, expect, it } from 'vitest';
import { decimalValue } from '../../lib/contract/exact-value.js';
import { bytesToBigInt, decimalValues } from '../../lib/formats/exact-decimals.js';
import { Random } from '../differential/random-tools.js';

/** Big-endian two's complement of `value` in `length` bytes, as Parquet stores FIXED_LEN_BYTE_ARRAY decimals. */
function bytesOf(value: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let v = BigInt.asUintN(length * 8, value);
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** The values at each edge the readers' shortcuts turn on: 2^47, 2^48, 2^53, 10^15, and the length's own range. */
function edges(length: number): bigint[] {
  const top = 1n << BigInt(length * 8 - 1);
  const near = [0n, 1n, 2n ** 47n, 2n ** 48n, 2n ** 53n, 10n ** 15n].flatMap((v) => [v - 1n, v, v + 1n]);
  return [...near, ...near.map((v) => -v), top - 1n, -top, -top + 1n].filter((v) => v >= -top && v < top);
}

describe('FIXED_LEN_BYTE_ARRAY decimals', () => {
  for (const length of [1, 3, 5, 6, 7, 8, 9, 12, 16]) {
    it(`reads every edge value of ${length} bytes as the canonical value of its unscaled integer`, () => {
      for (const units of edges(length)) {
        const bytes = bytesOf(units, length);
        expect(bytesToBigInt(bytes)).toBe(units);
        for (const scale of [0, 2, 10, 18]) expect(decimalValues([bytes], scale)[0], `${units} scale ${scale}`).toEqual(decimalValue(units, scale));
      }
    });
  }

  it('reads random values of every length and scale as their canonical value', () => {
    const r = new Random(27);
    for (let n = 0; n < 5_000; n++) {
      const length = 1 + r.int(16);
      const bytes = Uint8Array.from({ length }, () => r.int(256));
      const units = BigInt.asIntN(length * 8, BigInt(`0x${Buffer.from(bytes).toString('hex')}`));
      const scale = r.int(20);
      expect(decimalValues([bytes], scale)[0], `${units} scale ${scale}`).toEqual(decimalValue(units, scale));
    }
  });
});
