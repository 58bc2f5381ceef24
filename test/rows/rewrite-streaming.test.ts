import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes, type ByteSource } from '../../lib/formats/byte-source.js';
import { rewriteWithout } from '../../lib/rows/rewrite-file.js';

const GROUPS = 480;
const GROUP_ROWS = 500;
const PART = 1024 * 1024;

/** A file of many row groups whose payloads do not compress: about 24 MB. */
function manyGroups(): Uint8Array {
  const rows = GROUPS * GROUP_ROWS;
  return new Uint8Array(parquetWriteBuffer({
    columnData: [
      { name: 'id', data: BigInt64Array.from({ length: rows }, (_, i) => BigInt(i)) },
      { name: 'payload', data: Array.from({ length: rows }, () => randomBytes(100)) },
    ],
    rowGroupSize: GROUP_ROWS,
  }));
}

/** The source, counting how far into the file it has been read. */
function watched(bytes: Uint8Array): ByteSource & { furthest: number } {
  const inner = byteSourceFromBytes(bytes);
  const source = {
    byteLength: inner.byteLength,
    furthest: 0,
    slice(start: number, end = inner.byteLength) {
      // The footer is read first, from the end; data reads are what show streaming.
      if (end < inner.byteLength - 65_536) source.furthest = Math.max(source.furthest, end);
      return inner.slice(start, end);
    },
  };
  return source;
}

/** Live bytes (heap and buffers) after a full collection: what is held, not what awaits collection. */
function liveBytes(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

describe('a file of many row groups', () => {
  it('is rewritten a group at a time: each chunk is one part, and the first leaves before most of the file is read', async () => {
    const bytes = manyGroups();
    const source = watched(bytes);
    const rows = Array.from({ length: GROUPS }, (_, g) => g * GROUP_ROWS + 7);
    const { chunks } = await rewriteWithout('parquet', source, rows, { partBytes: PART });
    const sizes: number[] = [];
    let readAtFirst = 0;
    const before = liveBytes();
    let held = 0;
    for await (const chunk of chunks) {
      if (sizes.length === 0) readAtFirst = source.furthest;
      sizes.push(chunk.length);
      if (sizes.length % 4 === 0) held = Math.max(held, liveBytes() - before);
    }
    expect(sizes.length).toBeGreaterThan(4);
    expect(sizes.slice(0, -1).every((size) => size === PART)).toBe(true);
    expect(sizes.at(-1)!).toBeLessThanOrEqual(PART);
    // The first part is out once about a part's worth of groups is written: a fifth of the file at most.
    expect(readAtFirst).toBeLessThan(bytes.length / 5);
    // Held beyond what the rewrite had when it began (its writer buffer and a part): about a group
    // and the footer's metadata, not the groups already written, whose byte bounds, views of their
    // decoded chunks, once kept every one alive (10 MB more here by the last part).
    expect(held).toBeLessThan(2 * PART);
  });
});
