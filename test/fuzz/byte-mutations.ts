import type { Prng } from './prng.js';

/** Mutations that know nothing of Parquet: damage the bytes the way storage or transfer would. */
export interface Mutated {
  readonly bytes: Uint8Array;
  readonly detail: string;
}

const STOMP_BYTES = [0x00, 0xff, 0x7f, 0x80];

export function bitFlip(file: Uint8Array, rng: Prng, from = 0, to = file.length): Mutated {
  const out = file.slice();
  const flips: number[] = [];
  for (let n = 1 + rng.int(4); n > 0; n--) {
    const bit = from * 8 + rng.int((to - from) * 8);
    out[bit >> 3]! ^= 1 << (bit & 7);
    flips.push(bit);
  }
  return { bytes: out, detail: `bits ${flips.join(',')}` };
}

export function footerBitFlip(file: Uint8Array, rng: Prng): Mutated {
  const length = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
  return bitFlip(file, rng, Math.max(0, file.length - 8 - length), file.length - 8);
}

export function byteStomp(file: Uint8Array, rng: Prng): Mutated {
  const out = file.slice();
  const at = rng.int(file.length);
  const run = 1 + rng.int(8);
  const value = rng.next() < 0.2 ? rng.int(256) : rng.pick(STOMP_BYTES);
  out.fill(value, at, at + run);
  return { bytes: out, detail: `${run} bytes of ${value} at ${at}` };
}

export function truncate(file: Uint8Array, rng: Prng): Mutated {
  const length = rng.next() < 0.5 ? rng.int(file.length) : file.length - 1 - rng.int(Math.min(64, file.length));
  return { bytes: file.slice(0, length), detail: `to ${length} of ${file.length} bytes` };
}

/** Removes or inserts bytes before the footer: every offset the footer holds now points astray. */
export function cutMiddle(file: Uint8Array, rng: Prng): Mutated {
  const length = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
  const bodyEnd = Math.max(5, file.length - 8 - length);
  const at = 4 + rng.int(bodyEnd - 4);
  const span = 1 + rng.int(64);
  if (rng.next() < 0.5) {
    const out = new Uint8Array(file.length + span);
    out.set(file.subarray(0, at));
    for (let i = 0; i < span; i++) out[at + i] = rng.int(256);
    out.set(file.subarray(at), at + span);
    return { bytes: out, detail: `inserted ${span} bytes at ${at}` };
  }
  const end = Math.min(at + span, bodyEnd);
  const out = new Uint8Array(file.length - (end - at));
  out.set(file.subarray(0, at));
  out.set(file.subarray(end), at);
  return { bytes: out, detail: `removed ${end - at} bytes at ${at}` };
}

/** The 4-byte footer length: past the file, the whole file, wrapped, or slightly off. */
export function footerLength(file: Uint8Array, rng: Prng): Mutated {
  const view = new DataView(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
  const original = view.getUint32(file.length - 8, true);
  const forged = rng.pick([file.length, file.length - 8, file.length - 7, file.length + 1, 0xffff_ffff, 0x8000_0000, 0, 1, original + 1, original - 1, rng.int(file.length)]) >>> 0;
  view.setUint32(file.length - 8, forged, true);
  return { bytes: new Uint8Array(view.buffer), detail: `footer length ${original} -> ${forged}` };
}
