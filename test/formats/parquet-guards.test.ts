import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes, type ByteSource } from '../../lib/formats/byte-source.js';
import { checkDeclaredSize } from '../../lib/formats/guarded-codecs.js';
import { openParquetFile, type ParquetReadOptions } from '../../lib/formats/parquet-file.js';
import { makeOrders, ordersToParquet } from '../fixtures/orders-fixture.js';
import { columnChunks, joinFile, parseLayout, rowGroups, spliceBody, type PageSpot } from '../fuzz/parquet-layout.js';
import { T, child, encodeStruct, items, setInt, type TStruct } from '../fuzz/thrift-compact.js';

/** What the engine would report: rows read, or the UnreadableError's message. */
async function outcome(input: Uint8Array | ByteSource, hashOnly: ReadonlySet<string> = new Set(), options: ParquetReadOptions = {}): Promise<string> {
  const table = openParquetFile(input instanceof Uint8Array ? byteSourceFromBytes(input) : input, options);
  try {
    const schema = await table.schema();
    if (schema.kind !== 'typed') return 'not typed';
    let rows = 0;
    for await (const batch of table.batches(schema.columns.map((c) => c.name), { hashOnly })) rows += batch.rowCount;
    return `read ${rows}`;
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'UnreadableError') throw error;
    return error.message;
  }
}

const snappyOrders = () => ordersToParquet(makeOrders({ rows: 300 }), { rowGroupSize: 100 });

function uncompressed(encoding?: 'DELTA_BINARY_PACKED'): Uint8Array {
  const rows = 300;
  return new Uint8Array(parquetWriteBuffer({
    columnData: [
      { name: 'id', data: Int32Array.from({ length: rows }, (_, i) => i), type: 'INT32', nullable: false, ...(encoding ? { encoding } : {}) },
      { name: 'maybe', data: Array.from({ length: rows }, (_, i) => (i % 3 ? i : null)), type: 'INT32' },
    ],
    codec: 'UNCOMPRESSED',
  }));
}

/** Three required strings, PLAIN and uncompressed: the first value's length follows the page header. */
function uncompressedStrings(): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'key', data: ['a', 'b', 'c'], type: 'STRING', nullable: false, encoding: 'PLAIN' }], codec: 'UNCOMPRESSED' }));
}

/** The first data page of the named column, in a freshly parsed layout. */
function dataPage(file: Uint8Array, column: string) {
  const layout = parseLayout(file);
  const page = layout.pages.find((p) => child(p.header, 8) && new TextDecoder().decode(items(child(p.chunk, 3), 3)[0] as Uint8Array) === column);
  if (!page) throw new Error(`no data page for ${column}`);
  return { layout, page };
}

function dictionaryPage(file: Uint8Array, column: string) {
  const layout = parseLayout(file);
  const page = layout.pages.find((p) => child(p.header, 7) && new TextDecoder().decode(items(child(p.chunk, 3), 3)[0] as Uint8Array) === column);
  if (!page) throw new Error(`no dictionary page for ${column}`);
  return { layout, page };
}

function withHeader(file: Uint8Array, column: string, edit: (page: PageSpot) => void, kind: 'data' | 'dictionary' = 'data'): Uint8Array {
  const { layout, page } = kind === 'data' ? dataPage(file, column) : dictionaryPage(file, column);
  edit(page);
  return spliceBody(layout, page.headerStart, page.headerEnd, encodeStruct(page.header), page.chunk);
}

function withFooter(file: Uint8Array, edit: (footer: TStruct) => void): Uint8Array {
  const layout = parseLayout(file);
  edit(layout.footer);
  return joinFile(layout.body, layout.footer);
}

describe('Parquet footer guards', () => {
  it('reads valid files as before', async () => {
    expect(await outcome(snappyOrders())).toBe('read 300');
    expect(await outcome(uncompressed('DELTA_BINARY_PACKED'))).toBe('read 300');
  });

  it('refuses a footer longer than the file', async () => {
    const file = snappyOrders();
    new DataView(file.buffer).setUint32(file.length - 8, file.length, true);
    expect(await outcome(file)).toMatch(/^cannot read the Parquet footer: it claims \d+ bytes but the file has only \d+ bytes for it$/);
  });

  it('refuses a footer over the size limit after reading only the tail', async () => {
    const size = 40 * 2 ** 20;
    let fetched = 0;
    const source: ByteSource = {
      byteLength: size,
      slice(start, end = size) {
        fetched += end - start;
        const bytes = new Uint8Array(end - start);
        const view = new DataView(bytes.buffer);
        view.setUint32(bytes.length - 8, 20 * 2 ** 20, true);
        bytes.set([0x50, 0x41, 0x52, 0x31], bytes.length - 4);
        return bytes.buffer;
      },
    };
    expect(await outcome(source)).toBe('cannot read the Parquet footer: it is 20 MiB, over the 16 MiB footer limit');
    expect(fetched).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses a footer of more values than the parse limit, before parsing it', async () => {
    const count = 1_000_001;
    const varint = [0xc1, 0x84, 0x3d]; // 1,000,001
    const footer = new Uint8Array([0x29, 0xfc, ...varint, ...new Uint8Array(count), 0x00]);
    const file = new Uint8Array(4 + footer.length + 8);
    file.set([0x50, 0x41, 0x52, 0x31]);
    file.set(footer, 4);
    new DataView(file.buffer).setUint32(4 + footer.length, footer.length, true);
    file.set([0x50, 0x41, 0x52, 0x31], file.length - 4);
    expect(await outcome(file)).toBe('the footer holds more than 1,000,000 values, the limit for parsing one');
  });

  it('refuses a schema nested deeper than the limit', async () => {
    const file = withFooter(snappyOrders(), (footer) => {
      const schema = footer.get(2)!.value as { items: TStruct[] };
      const leaves = schema.items.slice(1);
      const group = (name: string, children = 1): TStruct => new Map([[4, { type: T.BINARY, value: new TextEncoder().encode(name) }], [5, { type: T.I32, value: children }]]);
      // The leaves stay (statistics are parsed by them); 150 groups now wrap them.
      schema.items = [group('root'), ...Array.from({ length: 149 }, (_, i) => group(`g${i}`)), group('inner', leaves.length), ...leaves];
    });
    expect(await outcome(file)).toBe('the Parquet footer is inconsistent: its schema nests deeper than 100 levels');
  });

  it('refuses a row group over the row cap, naming the cap', async () => {
    const file = withFooter(snappyOrders(), (footer) => setInt(rowGroups(footer)[1]!, 3, 2 ** 27, T.I64));
    expect(await outcome(file)).toBe('the Parquet footer is inconsistent: row group 1 declares 134217728 rows; a row group may hold 0 to 67,108,864 (64 Mi) rows');
  });

  it('refuses a column chunk that lies outside the file', async () => {
    const original = snappyOrders();
    const file = withFooter(original, (footer) => setInt(child(columnChunks(footer)[2], 3)!, 7, original.length, T.I64));
    expect(await outcome(file)).toMatch(/^the Parquet footer is inconsistent: row group 0 column "amount" says its data is at bytes \d+ to \d+ \(first page at \d+\), but the file's data lies within bytes 4 to \d+$/);
  });
});

describe('Parquet page guards', () => {
  it('refuses a Snappy page declaring more than the page limit', async () => {
    const file = withHeader(snappyOrders(), 'order_id', (page) => setInt(page.header, 2, 300 * 2 ** 20));
    expect(await outcome(file)).toMatch(/^cannot decode rows 0-99: a SNAPPY page declares 300 MiB uncompressed, over the 256 MiB page limit$/);
  });

  it('refuses a Snappy page declaring more than Snappy can expand its bytes to', async () => {
    const file = withHeader(snappyOrders(), 'status', (page) => setInt(page.header, 2, 10 * 2 ** 20));
    expect(await outcome(file)).toMatch(/a SNAPPY page declares 10 MiB from \d+ bytes: SNAPPY cannot expand data more than 32 times$/);
  });

  it('refuses a page header whose counts exceed its row group', async () => {
    const file = withHeader(uncompressed(), 'maybe', (page) => setInt(child(page.header, 8)!, 1, 2 ** 30));
    expect(await outcome(file)).toBe('cannot decode rows 0-299: column "maybe", page at byte 0 of its chunk: its header declares 1073741824 values; at most 300 are possible');
  });

  it('refuses a definition-level run longer than the page', async () => {
    const { layout, page } = dataPage(uncompressed(), 'maybe');
    const body = layout.body.slice();
    body.set([0x80, 0x80, 0x80, 0x80, 0x08], page.headerEnd); // an RLE run of 2^30 levels
    expect(await outcome(joinFile(body, layout.footer))).toBe('cannot decode rows 0-299: column "maybe", page at byte 0 of its chunk: definition levels hold a run of 1073741824 values where 300 remain in a page of 300');
  });

  it('refuses a dictionary page claiming more values than its bytes hold, whole and in slices, before the decoder sizes the dictionary by it', async () => {
    const file = withHeader(snappyOrders(), 'status', (page) => setInt(child(page.header, 7)!, 1, 2 ** 28), 'dictionary');
    const refusal = /column "status", page at byte 0 of its chunk: its header declares 268435456 dictionary values; at most \d+ are possible$/;
    expect(await outcome(file)).toMatch(refusal);
    expect(await outcome(file, new Set(), { wholeGroupValues: 0 })).toMatch(refusal);
  });

  it('refuses a delta stream whose block header the format does not allow', async () => {
    const { layout, page } = dataPage(uncompressed('DELTA_BINARY_PACKED'), 'id');
    const body = layout.body.slice();
    expect([...body.subarray(page.headerEnd, page.headerEnd + 2)]).toEqual([0x80, 0x01]); // blocks of 128
    body[page.headerEnd] = 0xff; // blocks of 255: would make hyparquet step through the page forever
    expect(await outcome(joinFile(body, layout.footer))).toMatch(/delta values declare blocks of 255 values in 4 miniblocks, which the delta encoding does not allow$/);
  });
});

describe('key columns hashed from page bytes', () => {
  const keys = new Set(['order_id', 'status']);

  it('reads valid files as the decoder does', async () => {
    expect(await outcome(snappyOrders(), keys)).toBe('read 300');
  });

  it('refuses a dictionary page claiming more values than its bytes hold, before allocating them', async () => {
    const file = withHeader(snappyOrders(), 'status', (page) => setInt(child(page.header, 7)!, 1, 2 ** 30), 'dictionary');
    expect(await outcome(file, keys)).toMatch(/^cannot decode rows 0-99: column "status", page at byte 0 of its chunk: its header declares 1073741824 dictionary values; at most \d+ are possible$/);
  });

  it('refuses a value whose length runs past its page', async () => {
    const { layout, page } = dataPage(uncompressedStrings(), 'key');
    const body = layout.body.slice();
    new DataView(body.buffer).setUint32(page.headerEnd, 1_000_000, true); // the first value's length
    expect(await outcome(joinFile(body, layout.footer), new Set(['key']))).toMatch(/^cannot decode rows 0-2: value 0 runs \d+ bytes past the end of its page$/);
  });
});

describe('checkDeclaredSize', () => {
  it('holds each codec to its own expansion limit, with a floor for small pages', () => {
    expect(() => checkDeclaredSize('SNAPPY', 10, 60_000)).not.toThrow();
    expect(() => checkDeclaredSize('SNAPPY', 10_000, 330_000)).toThrow(/SNAPPY cannot expand data more than 32 times/);
    expect(() => checkDeclaredSize('ZSTD', 100, 1_000_000)).not.toThrow();
    expect(() => checkDeclaredSize('BROTLI', 100, 200 * 2 ** 20)).not.toThrow();
    expect(() => checkDeclaredSize('BROTLI', 100, 257 * 2 ** 20)).toThrow(/over the 256 MiB page limit/);
    expect(() => checkDeclaredSize('GZIP', 10, -1)).toThrow(/declares an uncompressed size of -1/);
  });
});
