import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openCsvFile } from '../../lib/formats/csv-file.js';
import { openJsonLinesFile } from '../../lib/formats/jsonl-file.js';
import { UnreadableError } from '../../lib/formats/table-file.js';
import { MAX_ZSTD_WINDOW, unzstdChunks } from '../../lib/formats/zstd-chunks.js';
import { columnValues } from '../fixtures/table-files.js';

/**
 * zstd-compressed CSV and JSON Lines, as the zstd tool writes them (one frame, several, a
 * skippable frame, a checksum), read like the plain file at any chunk size; and the guards: a
 * window over zstd's own default limit, a block over the format's limit, a truncated file, and
 * output that stays a block at a time however far the data expands.
 */
const hasZstd = spawnSync('zstd', ['--version'], { stdio: 'ignore' }).status === 0;
const zstd = (text: string | Uint8Array, ...args: string[]) => new Uint8Array(execFileSync('zstd', ['-q', '-c', ...args], { input: text }));
const csvOf = (bytes: Uint8Array, options = {}) => openCsvFile(byteSourceFromBytes(bytes), options);

const CSV = 'id,text\n1,"a\r\nb"\n2,"€uro, ""q"""\n3,日本\n4,\n';

async function* chunksOf(bytes: Uint8Array, size: number, read?: { bytes: number }): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) {
    if (read) read.bytes = Math.min(bytes.length, at + size);
    yield bytes.subarray(at, at + size);
  }
}

/** A frame of `blocks` RLE blocks of 128 KiB of 'a' each, no content size: some 4 bytes per 128 KiB. */
function rleFrame(blocks: number, windowByte = 0x38): Uint8Array {
  const header = [0x28, 0xb5, 0x2f, 0xfd, 0x00, windowByte];
  const body: number[] = [];
  for (let k = 0; k < blocks; k++) {
    const value = ((128 * 1024) << 3) | (1 << 1) | (k === blocks - 1 ? 1 : 0);
    body.push(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, 0x61);
  }
  return Uint8Array.from([...header, ...body]);
}

describe.skipIf(!hasZstd)('zstd-compressed CSV and JSON Lines (zstd tool)', () => {
  it('reads a .csv.zst like the plain file, whatever the chunk size', async () => {
    for (const args of [[], ['-19'], ['--no-check'], ['-1', '--content-size']]) {
      for (const chunkBytes of [1, 2, 5, 9, 1 << 20]) {
        expect(await columnValues(csvOf(zstd(CSV, ...args), { chunkBytes, batchRows: 2 }), 'text')).toEqual(['a\r\nb', '€uro, "q"', '日本', null]);
      }
    }
  });

  it('reads frames one after another, and passes over a skippable frame', async () => {
    const skippable = Uint8Array.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const bytes = Buffer.concat([zstd('n\n1\n2\n'), skippable, zstd('3\n4\n')]);
    expect(await columnValues(csvOf(new Uint8Array(bytes), { chunkBytes: 3 }), 'n')).toEqual(['1', '2', '3', '4']);
  });

  it('reads a .jsonl.zst', async () => {
    expect(await columnValues(openJsonLinesFile(byteSourceFromBytes(zstd('{"a":1}\n{"a":null}\n')), { chunkBytes: 4 }), 'a')).toEqual([1, null]);
  });

  it('reads a large file a block at a time, equal to what zstd -d gives', async () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `${i},name ${i}\n`).join('');
    const pieces: Uint8Array[] = [];
    for await (const piece of unzstdChunks(chunksOf(zstd(text, '-3'), 4096), 65536)) pieces.push(piece);
    expect(Buffer.concat(pieces).toString()).toBe(text);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(65536);
  });

  it('refuses a file truncated in its last block', async () => {
    const bytes = zstd('x\n'.repeat(1000));
    await expect(columnValues(csvOf(bytes.subarray(0, bytes.length - 3)), 'x')).rejects.toThrow(/the zstd data ends early: the file is truncated/);
  });

  it("refuses a frame written with --long=31, whose window is over zstd's default limit", async () => {
    const bytes = zstd('x\n1\n', '--long=31', '--no-content-size');
    await expect(csvOf(bytes).schema()).rejects.toThrow(/needs a 2147483648-byte window, over the 134217728-byte limit/);
  });
});

describe('zstd guards (hand-made frames)', () => {
  it('expands 64 MiB from a few KiB a block at a time, reading no further input while output waits', async () => {
    const bytes = rleFrame(512);
    expect(bytes.length).toBeLessThan(4096);
    const read = { bytes: 0 };
    const reader = unzstdChunks(chunksOf(bytes, 64, read), 1 << 20);
    const first = await reader.next();
    expect(first.value?.length).toBe(128 * 1024);
    expect(read.bytes).toBeLessThanOrEqual(128);
    let total = first.value!.length;
    for await (const piece of reader) total += piece.length;
    expect(total).toBe(64 * 2 ** 20);
  });

  it("refuses a block declaring more than the format's 128 KiB before anything is allocated for it", async () => {
    const bytes = rleFrame(1);
    const big = ((2 ** 21 - 1) << 3) | (1 << 1) | 1;
    bytes.set([big & 0xff, (big >> 8) & 0xff, (big >> 16) & 0xff], 6);
    await expect(csvOf(bytes).schema()).rejects.toThrow(/a block of 2097151 bytes, over the 131072-byte limit of its frame/);
  });

  it('refuses a window over the limit from the frame header alone', async () => {
    expect(MAX_ZSTD_WINDOW).toBe(2 ** 27);
    // Window descriptor exponent 18: 2^28 bytes.
    await expect(csvOf(rleFrame(1, 18 << 3)).schema()).rejects.toThrow(UnreadableError);
  });

  it('refuses bytes after a frame that start no frame', async () => {
    const bytes = Buffer.concat([rleFrame(1), Buffer.from('garbage!')]);
    await expect(columnValues(csvOf(new Uint8Array(bytes)), 'a')).rejects.toThrow(/after a frame come bytes that start no frame/);
  });
});
