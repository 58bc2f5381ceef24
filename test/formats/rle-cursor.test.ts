import { describe, expect, it } from 'vitest';
import { ByteWriter } from 'hyparquet-writer/src/bytewriter.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { wholeWindow } from '../../lib/formats/byte-window.js';
import { RleCursor } from '../../lib/formats/rle-cursor.js';

/** A deterministic stream of values `width` bits wide, mixing runs (RLE) and noise (bit-packed). */
function valuesOf(width: number, count: number, seed: number): number[] {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  const top = 2 ** width;
  const values: number[] = [];
  while (values.length < count) {
    const value = next() % top;
    const repeat = next() % 4 === 0 ? 8 + (next() % 20) : 1;
    for (let k = 0; k < repeat && values.length < count; k++) values.push(repeat > 1 ? value : next() % top);
  }
  return values;
}

function encoded(values: number[], width: number): Uint8Array {
  const writer = new ByteWriter();
  writeRleBitPackedHybrid(writer, values, width);
  return new Uint8Array(writer.getBuffer());
}

/**
 * The hybrid stream spelled out by hand (hyparquet-writer's encoder goes wrong past width 24):
 * runs of 8 or more as RLE runs, the rest in bit-packed runs of one group each, bit by bit.
 */
function encodedByHand(values: number[], width: number): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < values.length;) {
    let same = 1;
    while (i + same < values.length && values[i + same] === values[i]) same++;
    if (same >= 8) {
      varint(out, same << 1);
      for (let b = 0; b < (width + 7) >> 3; b++) out.push(Math.floor(values[i]! / 2 ** (8 * b)) & 0xff);
      i += same;
      continue;
    }
    varint(out, (1 << 1) | 1);
    const group = new Uint8Array(width);
    for (let k = 0; k < 8; k++) {
      const value = values[i + k] ?? 0;
      for (let bit = 0; bit < width; bit++) if (Math.floor(value / 2 ** bit) % 2 === 1) group[(k * width + bit) >> 3]! |= 1 << ((k * width + bit) & 7);
    }
    out.push(...group);
    i += 8;
  }
  return Uint8Array.from(out);
}

function varint(out: number[], value: number): void {
  for (; value >= 0x80; value >>>= 7) out.push((value & 0x7f) | 0x80);
  out.push(value);
}

/** Reads `total` values in reads of uneven sizes, so reads end inside groups and runs. */
async function readAll(bytes: Uint8Array, width: number, total: number, out: Uint32Array | Int32Array): Promise<void> {
  const cursor = new RleCursor(wholeWindow(bytes), width, 'dictionary indices');
  for (let at = 0, step = 1; at < total; at += step, step = (step * 7 + 3) % 23 || 1) await cursor.read(out, at, Math.min(step, total - at));
}

describe('RleCursor', () => {
  it('reads what a writer bit-packs and run-length encodes, at every width from 1 to 24, in reads that end inside groups', async () => {
    for (let width = 1; width <= 24; width++) {
      const values = valuesOf(width, 1_003, width);
      const out = new Uint32Array(values.length);
      await readAll(encoded(values, width), width, values.length, out);
      expect([...out], `width ${width}`).toEqual(values);
    }
  });

  it('reads hand-packed streams at every width from 1 to 32', async () => {
    for (let width = 1; width <= 32; width++) {
      const values = valuesOf(width, 997, 7 * width);
      const out = new Uint32Array(values.length);
      await readAll(encodedByHand(values, width), width, values.length, out);
      expect([...out], `width ${width}`).toEqual(values);
    }
  });

  it('reads width-32 values, those past 2^31 as negative Int32 (out of any dictionary) and exactly as Uint32', async () => {
    const values = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 7, 8, 9];
    // One bit-packed run of one group: header (1 << 1) | 1, then 8 little-endian words.
    const bytes = new Uint8Array(1 + 32);
    bytes[0] = 3;
    const view = new DataView(bytes.buffer);
    values.forEach((value, i) => view.setUint32(1 + 4 * i, value, true));
    const unsigned = new Uint32Array(8);
    await readAll(bytes, 32, 8, unsigned);
    expect([...unsigned]).toEqual(values);
    const signed = new Int32Array(8);
    await readAll(bytes, 32, 8, signed);
    expect([...signed]).toEqual(values.map((v) => v | 0));
  });

  it('reads the values a stream cut inside its last group still holds, and refuses the one past them', async () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 0];
    const whole = encoded(values, 3);
    // Header byte + 3 bytes hold 8 values of 3 bits; 2 bytes hold the first 5.
    const cut = whole.subarray(0, 3);
    const out = new Uint32Array(8);
    const cursor = new RleCursor(wholeWindow(cut), 3, 'dictionary indices');
    await cursor.read(out, 0, 5);
    expect([...out.subarray(0, 5)]).toEqual([1, 2, 3, 4, 5]);
    await expect(cursor.read(out, 5, 1)).rejects.toThrow('dictionary indices end inside a bit-packed run');
    await expect(new RleCursor(wholeWindow(cut), 3, 'dictionary indices').read(new Uint32Array(8), 0, 8)).rejects.toThrow('end inside a bit-packed run');
  });
});
