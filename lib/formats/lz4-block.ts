import { inflatedMore, inflatedSize } from './inflated-size.js';

/**
 * LZ4 as Parquet writes it: LZ4_RAW is one block; LZ4 is the Hadoop framing (blocks each
 * prefixed by their output and input lengths, big-endian) or, from older writers, one raw block.
 * Decoding stops at the first byte past `outputLength` instead of writing on into nothing, and a
 * page that makes fewer bytes is refused too (see inflated-size.ts).
 */
export function decodeLz4Raw(input: Uint8Array, outputLength: number): Uint8Array {
  const output = new Uint8Array(outputLength);
  inflatedSize(outputLength, lz4Block(input, output, 0, outputLength));
  return output;
}

export function decodeLz4(input: Uint8Array, outputLength: number): Uint8Array {
  const output = new Uint8Array(outputLength);
  const framed = hadoopFrames(input, output);
  if (framed === undefined) inflatedSize(outputLength, lz4Block(input, output, 0, outputLength));
  return output;
}

/** Decodes the Hadoop framing into `output`; undefined when the input is not framed so. */
function hadoopFrames(input: Uint8Array, output: Uint8Array): number | undefined {
  let i = 0;
  let o = 0;
  while (i + 8 <= input.length) {
    const out = readU32(input, i);
    const size = readU32(input, i + 4);
    if (size > input.length - i - 8 || out > output.length - o) return undefined;
    try {
      if (lz4Block(input.subarray(i + 8, i + 8 + size), output, o, o + out) !== o + out) return undefined;
    } catch {
      return undefined;
    }
    i += 8 + size;
    o += out;
  }
  if (i !== input.length) return undefined;
  inflatedSize(output.length, o);
  return o;
}

const readU32 = (bytes: Uint8Array, at: number) => ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;

/** One LZ4 block into output[start, limit); returns where its output ends. */
function lz4Block(input: Uint8Array, output: Uint8Array, start: number, limit: number): number {
  let o = start;
  for (let i = 0; i < input.length;) {
    const token = input[i++]!;
    let literals = token >> 4;
    if (literals === 15) for (let byte = 255; byte === 255 && i < input.length; literals += byte) byte = input[i++]!;
    if (o + literals > limit) throw inflatedMore(limit - start);
    if (i + literals > input.length) throw new Error('lz4 literals run past the end of the block');
    output.set(input.subarray(i, i + literals), o);
    o += literals;
    i += literals;
    if (i >= input.length) return o;
    const offset = input[i]! | (input[i + 1]! << 8);
    i += 2;
    if (!offset || offset > o - start) throw new Error(`lz4 offset out of range ${offset}`);
    let length = token & 0xf;
    if (length === 15) for (let byte = 255; byte === 255 && i < input.length; length += byte) byte = input[i++]!;
    length += 4;
    if (o + length > limit) throw inflatedMore(limit - start);
    for (let from = o - offset, end = o + length; o < end;) output[o++] = output[from++]!;
  }
  return o;
}
