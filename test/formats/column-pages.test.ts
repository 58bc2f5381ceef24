import { parquetMetadata } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes, type ByteSource } from '../../lib/formats/byte-source.js';
import { columnPages } from '../../lib/formats/column-pages.js';

const ROWS = 30_000;
const names = Array.from({ length: ROWS }, (_, i) => (i % 7 === 0 ? null : `name-${(Math.imul(i, 0x9e3779b1) >>> 0).toString(16)}-${'x'.repeat(i % 13)}`));
/** PLAIN and uncompressed: hyparquet reads each string as a view of the page's bytes, so a buffer reused under them would show. */
const file = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'name', data: names, encoding: 'PLAIN' }], codec: 'UNCOMPRESSED', pageSize: 2_000, rowGroupSize: ROWS }));

/** The file's one column read through `source` with a window of a few pages, every page taken whole and kept. */
async function readAll(source: ByteSource): Promise<unknown[]> {
  const metadata = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
  const meta = metadata.row_groups[0]!.columns[0]!.meta_data!;
  const taken: ArrayLike<unknown>[] = [];
  for await (const page of columnPages(source, metadata, meta, ROWS, { windowBytes: 5_000, streamBytes: 1 << 20 }, { rawText: true })) taken.push(await page.take(page.left));
  return taken.flatMap((values) => Array.from(values, (value) => (value instanceof Uint8Array ? new TextDecoder().decode(value) : value)));
}

describe('a column chunk read a window at a time', () => {
  it('reads each window straight into the buffer its pages are taken from, and every page taken earlier keeps its values', async () => {
    const inner = byteSourceFromBytes(file);
    const reads = { into: 0, sliced: 0 };
    const source: ByteSource = {
      byteLength: inner.byteLength,
      slice(start, end) {
        reads.sliced++;
        return inner.slice(start, end);
      },
      async readInto(start, end, target, at) {
        reads.into++;
        target.set(new Uint8Array(inner.slice(start, end) as ArrayBuffer), at);
      },
    };
    expect(await readAll(source)).toEqual(names);
    expect(reads.into).toBeGreaterThan(3);
    expect(reads.sliced).toBe(0);
  });

  it('reads a source that cannot read into a buffer through its slices, to the same values', async () => {
    expect(await readAll(byteSourceFromBytes(file))).toEqual(names);
  });
});
