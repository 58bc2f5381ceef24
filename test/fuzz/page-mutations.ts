import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { snappyUncompress } from 'hyparquet';
import type { Mutated } from './byte-mutations.js';
import { parseLayout, spliceBody, type PageSpot } from './parquet-layout.js';
import type { Prng } from './prng.js';
import { T, child, encodeStruct, int, setInt } from './thrift-compact.js';

/** Mutations inside column chunks: page headers with forged sizes and counts, forged level runs. */

const SIZES = [2 ** 31 - 1, 2 ** 30, 256 * 2 ** 20 + 1, 64 * 2 ** 20, 0, -1, -(2 ** 31)];
const COUNTS = [2 ** 31 - 1, 2 ** 28, 2 ** 24, 0, -1, -(2 ** 31)];

function withPage(file: Uint8Array, rng: Prng, dataOnly: boolean): { layout: ReturnType<typeof parseLayout>; page: PageSpot } | undefined {
  const layout = parseLayout(file);
  const pages = dataOnly ? layout.pages.filter((p) => child(p.header, 5) || child(p.header, 8)) : layout.pages;
  return pages.length ? { layout, page: rng.pick(pages) } : undefined;
}

function replaceHeader(found: NonNullable<ReturnType<typeof withPage>>): Uint8Array {
  const { layout, page } = found;
  return spliceBody(layout, page.headerStart, page.headerEnd, encodeStruct(page.header), page.chunk);
}

export function forgedPageSize(file: Uint8Array, rng: Prng): Mutated | undefined {
  const found = withPage(file, rng, false);
  if (!found) return undefined;
  const id = rng.pick([2, 3]);
  const original = int(found.page.header, id) ?? 0;
  const value = rng.next() < 0.8 ? rng.pick(SIZES) : rng.pick([original * 1000, original + 1, original - 1]);
  setInt(found.page.header, id, value, T.I32);
  return { bytes: replaceHeader(found), detail: `page at ${found.page.headerStart} ${id === 2 ? 'uncompressed' : 'compressed'}_page_size ${original} -> ${value}` };
}

export function forgedPageCount(file: Uint8Array, rng: Prng): Mutated | undefined {
  const found = withPage(file, rng, false);
  if (!found) return undefined;
  const { header } = found.page;
  const [sub, ids] = child(header, 8) ? [child(header, 8)!, [1, 2, 3, 5, 6, 4]] : child(header, 7) ? [child(header, 7)!, [1, 2]] : [child(header, 5), [1, 2]];
  if (!sub) return undefined;
  const id = rng.pick(ids);
  const value = id === 4 || (id === 2 && !child(header, 8)) ? rng.int(13) : rng.next() < 0.8 ? rng.pick(COUNTS) : (int(sub, id) ?? 0) + 1;
  setInt(sub, id, value, T.I32);
  return { bytes: replaceHeader(found), detail: `page at ${found.page.headerStart} field ${id} = ${value}` };
}

/** Varints and lengths that make a level or index decoder produce (or loop over) billions of values. */
const RUNS: readonly number[][] = [
  [0x80, 0x80, 0x80, 0x80, 0x08, 0x01], // RLE run of 2^30
  [0x81, 0x80, 0x80, 0x80, 0x02], // bit-packed run of 2^29 values
  [0xf0, 0xff, 0xff, 0x7f], // a 4-byte level length near 2^31
  [0xff, 0xff, 0xff, 0xff, 0x0f],
  [0x00], [0x21], [0xff], // bit widths 0, 33, 255
];

export function forgedRunLength(file: Uint8Array, rng: Prng): Mutated | undefined {
  const found = withPage(file, rng, true);
  if (!found) return undefined;
  const { layout, page } = found;
  const parts = pageParts(layout.body, page);
  if (!parts) return undefined;
  const plain = rng.next() < 0.5 && parts.levels.length ? parts.levels : parts.values;
  const run = rng.pick(RUNS);
  const at = Math.min(rng.pick([0, 1, 4, 5, rng.int(16)]), Math.max(0, plain.length - run.length));
  plain.set(run.slice(0, plain.length - at), at);
  const data = rebuildPage(page, parts);
  const which = plain === parts.levels ? 'levels' : 'values';
  return { bytes: spliceBody(layout, page.headerStart, page.dataEnd, concat(encodeStruct(page.header), data), page.chunk), detail: `run [${run.join(',')}] at ${which}+${at} of page ${page.headerStart}` };
}

interface PageParts {
  levels: Uint8Array;
  values: Uint8Array;
  readonly compressed: boolean;
}

/** A data page's levels (v2 keeps them outside the compressed part) and its values, decompressed. */
function pageParts(body: Uint8Array, page: PageSpot): PageParts | undefined {
  const data = body.slice(page.headerEnd, page.dataEnd);
  const v2 = child(page.header, 8);
  const levelBytes = v2 ? (int(v2, 5) ?? 0) + (int(v2, 6) ?? 0) : 0;
  const compressed = page.codec !== 0 && v2?.get(7)?.value !== false;
  const rest = data.subarray(levelBytes);
  const values = compressed ? decompress(page.codec, rest, (int(page.header, 2) ?? 0) - levelBytes) : rest.slice();
  return values && { levels: data.slice(0, levelBytes), values, compressed };
}

function rebuildPage(page: PageSpot, parts: PageParts): Uint8Array {
  const values = parts.compressed ? compress(page.codec, parts.values) : parts.values;
  setInt(page.header, 2, parts.levels.length + parts.values.length, T.I32);
  setInt(page.header, 3, parts.levels.length + values.length, T.I32);
  return concat(parts.levels, values);
}

/** Pages over 16 MiB are left alone: re-encoding them would cost the generator more than the reader. */
function decompress(codec: number, input: Uint8Array, size: number): Uint8Array | undefined {
  if (size > 16 * 2 ** 20) return undefined;
  try {
    if (codec === 1) {
      const out = new Uint8Array(size);
      snappyUncompress(input, out);
      return out;
    }
    if (codec === 2) return new Uint8Array(gunzipSync(input));
    if (codec === 4) return new Uint8Array(brotliDecompressSync(input));
  } catch {
    return undefined;
  }
  return undefined;
}

function compress(codec: number, input: Uint8Array): Uint8Array {
  if (codec === 2) return new Uint8Array(gzipSync(input));
  if (codec === 4) return new Uint8Array(brotliCompressSync(input));
  return snappyLiterals(input);
}

/** A valid Snappy stream of literals only: enough to carry forged bytes through the decoder. */
function snappyLiterals(input: Uint8Array): Uint8Array {
  const out: number[] = [];
  let length = input.length;
  for (; length >= 0x80; length >>>= 7) out.push((length & 0x7f) | 0x80);
  out.push(length);
  for (let at = 0; at < input.length; at += 65_536) {
    const piece = input.subarray(at, at + 65_536);
    const n = piece.length - 1;
    if (n < 60) out.push(n << 2);
    else if (n < 256) out.push(60 << 2, n);
    else out.push(61 << 2, n & 0xff, n >> 8);
    for (const byte of piece) out.push(byte);
  }
  return Uint8Array.from(out);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
