import { randomBytes } from 'node:crypto';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { byteSourceFromBytes, type ByteSource } from '../../lib/formats/byte-source.js';
import { rewriteWithout } from '../../lib/rows/rewrite-file.js';

// Run by rewrite-streaming.test.ts in a process of its own (node --expose-gc), so what other test
// files left in a shared worker cannot move the live-memory figures. Prints one JSON line.

const GROUPS = 480;
const GROUP_ROWS = 500;
export const PART = 1024 * 1024;

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
  (globalThis as { gc?: () => void }).gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

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
process.stdout.write(`${JSON.stringify({ fileBytes: bytes.length, sizes, readAtFirst, held })}\n`);
