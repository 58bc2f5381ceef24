import { readFileSync } from 'node:fs';
import { parquetMetadata } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { snappyUncompress } from 'hyparquet/src/snappy.js';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { describe, expect, it } from 'vitest';
import { StreamWindow } from '../../lib/formats/byte-window.js';
import { SnappyStream } from '../../lib/formats/snappy-stream.js';
import { UnreadableError } from '../../lib/formats/table-file.js';
import { wideTable } from '../matrix/wide-table.js';
import { seededRandom } from '../fixtures/seeded-random.js';
import { writeCached, writerVariant } from '../writers/index.js';

/**
 * The streamed Snappy decoder (lib/formats/snappy-stream.ts behind byte-window.ts) against
 * hyparquet's whole-buffer decoder: on random data, on the pages of every Snappy writer of the
 * matrix, read in odd-sized pieces and steps; a copy from beyond the window falls back to a
 * whole decode; truncated and forged streams end in an UnreadableError.
 */
interface Reading {
  readonly piece?: number;
  readonly history?: number;
  readonly chunk?: number;
  /** Bytes taken at a time, cycled. */
  readonly steps?: readonly number[];
}

async function streamed(compressed: Uint8Array, total: number, { piece = 4096, history = 64 * 1024, chunk = 8192, steps = [1, 7, 100, 5000] }: Reading = {}): Promise<{ bytes: Uint8Array; restarts: number; reads: number }> {
  let reads = 0;
  const read = async (from: number, to: number) => {
    reads++;
    return compressed.slice(from, to);
  };
  const open = () => new SnappyStream(read, compressed.length, total, piece);
  let restarts = 0;
  const window = new StreamWindow(open(), history, chunk, () => {
    restarts++;
    return open();
  });
  const bytes = new Uint8Array(total);
  for (let got = 0, i = 0; got < total; i++) {
    const count = Math.min(steps[i % steps.length]!, total - got);
    await window.fill(count);
    bytes.set(window.bytes.subarray(window.at, window.at + count), got);
    window.at += count;
    got += count;
  }
  await window.finish();
  return { bytes, restarts, reads };
}

function whole(compressed: Uint8Array, total: number): Uint8Array {
  const out = new Uint8Array(total);
  snappyUncompress(compressed, out);
  return out;
}

/** Bytes that compress a little (text-like runs), a lot (repeats) or not at all (noise). */
function sample(random: () => number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length;) {
    const kind = random();
    const run = Math.min(length - at, 1 + Math.floor(random() * 3000));
    if (kind < 0.3) for (let i = 0; i < run; i++) bytes[at + i] = Math.floor(random() * 256);
    else if (kind < 0.6) bytes.fill(Math.floor(random() * 256), at, at + run);
    else for (let i = 0; i < run; i++) bytes[at + i] = at + i >= 40 ? bytes[at + i - 40 + Math.floor(random() * 3)]! : 97;
    at += run;
  }
  return bytes;
}

/** A raw Snappy stream written by hand: its length, then elements. */
function stream(length: number, ...elements: number[][]): Uint8Array {
  const header: number[] = [];
  for (let left = length; ; left = Math.floor(left / 128)) {
    header.push((left % 128) | (left >= 128 ? 0x80 : 0));
    if (left < 128) break;
  }
  return Uint8Array.from([...header, ...elements.flat()]);
}

/** A literal with a 4-byte length, so any size can be written. */
function literal(bytes: Uint8Array): number[] {
  const n = bytes.length - 1;
  return [63 << 2, n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24, ...bytes];
}

/** A copy with a 4-byte offset: 1 to 64 bytes from any distance. */
function copy(offset: number, length: number): number[] {
  return [((length - 1) << 2) | 3, offset & 0xff, (offset >>> 8) & 0xff, (offset >>> 16) & 0xff, offset >>> 24];
}

async function failure(compressed: Uint8Array, total: number, reading: Reading = {}): Promise<unknown> {
  return streamed(compressed, total, reading).then(() => undefined, (error: unknown) => error);
}

describe('streamed Snappy decoding', () => {
  it('decodes random data as hyparquet does, whatever the pieces, chunks and steps', async () => {
    const random = seededRandom(11);
    for (let round = 0; round < 40; round++) {
      const data = sample(random, Math.floor(random() * 300_000));
      const compressed = snappyCompress(data);
      const reading = { piece: 1 + Math.floor(random() * 20_000), chunk: 1 + Math.floor(random() * 70_000), steps: [1 + Math.floor(random() * 9000), 3, 1] };
      const { bytes, restarts } = await streamed(compressed, data.length, reading);
      expect(Buffer.compare(bytes, whole(compressed, data.length)), `round ${round}`).toBe(0);
      expect(Buffer.compare(bytes, data)).toBe(0);
      expect(restarts).toBe(0);
    }
  });

  it('fetches a large stream a piece at a time', async () => {
    const data = sample(seededRandom(3), 2_000_000);
    const compressed = snappyCompress(data);
    const { bytes, reads } = await streamed(compressed, data.length, { piece: 64 * 1024, steps: [100_000] });
    expect(Buffer.compare(bytes, data)).toBe(0);
    expect(reads).toBeGreaterThanOrEqual(Math.ceil(compressed.length / (64 * 1024)));
  });

  for (const id of ['duckdb-default', 'duckdb-one-group', 'duckdb-v2', 'arrow-rs-snappy', 'polars-snappy-nostats', 'hyparquet-default']) {
    it(`decodes every Snappy page of a ${id} file as hyparquet does`, async () => {
      const bytes = new Uint8Array(readFileSync(await writeCached(writerVariant(id), wideTable(20_000), 'wide')));
      let pages = 0;
      for (const { compressed, total } of snappyPages(bytes)) {
        const { bytes: out, restarts } = await streamed(compressed, total, { piece: 1000, chunk: 3000 });
        expect(Buffer.compare(out, whole(compressed, total))).toBe(0);
        expect(restarts).toBe(0);
        pages++;
      }
      expect(pages).toBeGreaterThan(0);
    });
  }

  it('decodes a page whole when a copy reaches further back than the window keeps', async () => {
    const start = sample(seededRandom(5), 100_000);
    const compressed = stream(100_064, literal(start), copy(100_000, 64));
    const { bytes, restarts } = await streamed(compressed, 100_064, { history: 64 * 1024, chunk: 4096, steps: [30_000, 1] });
    expect(Buffer.compare(bytes, whole(compressed, 100_064))).toBe(0);
    expect(restarts).toBe(1);
    // Within the window, the same copy streams.
    expect((await streamed(compressed, 100_064, { history: 128 * 1024 })).restarts).toBe(0);
  });

  it('decodes overlapping copies (a run) byte by byte', async () => {
    const compressed = stream(3 + 64 * 20, [2 << 2, 1, 2, 3], ...Array.from({ length: 20 }, () => copy(3, 64)));
    const { bytes } = await streamed(compressed, 3 + 64 * 20, { piece: 3, chunk: 10, steps: [1] });
    expect(Buffer.compare(bytes, whole(compressed, bytes.length))).toBe(0);
  });

  it('refuses a stream cut short at any byte, never hanging', async () => {
    const data = sample(seededRandom(8), 20_000);
    const compressed = snappyCompress(data);
    for (let cut = 0; cut < compressed.length; cut += 1 + Math.floor(cut / 50)) {
      const error = await failure(compressed.subarray(0, cut), data.length, { piece: 512 });
      expect(error, `cut at ${cut}`).toBeInstanceOf(UnreadableError);
    }
  });

  it('refuses forged streams with their reason', async () => {
    const ten = Uint8Array.from({ length: 10 }, (_, i) => i);
    const cases: [string, Uint8Array, number, RegExp][] = [
      ['a length other than the page header\'s', stream(11, literal(ten)), 10, /declares 11 bytes but its page header says 10/],
      ['a copy from before the start', stream(20, literal(ten), copy(11, 10)), 20, /before the start of its output/],
      ['a copy of offset 0', stream(20, literal(ten), copy(0, 10)), 20, /before the start of its output/],
      ['a copy past the declared length', stream(12, literal(ten), copy(5, 10)), 12, /past the 12 bytes it declares/],
      ['a literal past the declared length', stream(5, literal(ten)), 5, /literal of 10 bytes at byte 0, past the 5 bytes/],
      ['a literal claiming 4 GiB', stream(10, [63 << 2, 0xff, 0xff, 0xff, 0xff]), 10, /literal of 4294967296 bytes/],
      ['elements past the declared length', stream(10, literal(ten), copy(1, 1)), 10, /past the 10 bytes it declares/],
      ['a stream that ends early', stream(20, literal(ten)), 20, /ends after 10 of the 20 bytes/],
      ['no length', new Uint8Array(0), 10, /does not start with its length/],
      ['a length that never ends', Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1]), 10, /does not start with its length/],
    ];
    for (const [what, compressed, total, reason] of cases) {
      const error = await failure(compressed, total, { piece: 3 });
      expect(error, what).toBeInstanceOf(UnreadableError);
      expect((error as Error).message, what).toMatch(reason);
    }
  });

  it('ends random bytes in an UnreadableError or in what hyparquet decodes', async () => {
    const random = seededRandom(21);
    for (let round = 0; round < 3000; round++) {
      const total = Math.floor(random() * 300);
      const compressed = Uint8Array.from([total & 0x7f | (total >= 128 ? 0x80 : 0), ...(total >= 128 ? [total >>> 7] : []), ...Array.from({ length: Math.floor(random() * 80) }, () => Math.floor(random() * 256))]);
      const error = await failure(compressed, total, { piece: 1 + Math.floor(random() * 16), chunk: 16, history: 32 });
      if (error !== undefined) expect(error, `round ${round}`).toBeInstanceOf(UnreadableError);
      else expect(Buffer.compare((await streamed(compressed, total)).bytes, whole(compressed, total)), `round ${round}`).toBe(0);
    }
  });
});

/** The compressed bytes and declared size of each Snappy data page's compressed part in a file. */
function* snappyPages(file: Uint8Array): Generator<{ compressed: Uint8Array; total: number }> {
  const metadata = parquetMetadata(file.slice().buffer);
  for (const group of metadata.row_groups) {
    for (const { meta_data: meta } of group.columns) {
      if (!meta || meta.codec !== 'SNAPPY') continue;
      const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
      const reader = { view: new DataView(file.buffer, file.byteOffset, file.byteLength), offset: start };
      while (reader.offset < start + Number(meta.total_compressed_size)) {
        const header = parquetHeader(reader);
        const data = file.subarray(reader.offset, reader.offset + header.compressed_page_size);
        reader.offset += header.compressed_page_size;
        const v2 = header.data_page_header_v2;
        const levels = v2 ? v2.repetition_levels_byte_length + v2.definition_levels_byte_length : 0;
        if (v2?.is_compressed === false || header.uncompressed_page_size - levels === 0) continue;
        yield { compressed: data.subarray(levels), total: header.uncompressed_page_size - levels };
      }
    }
  }
}
