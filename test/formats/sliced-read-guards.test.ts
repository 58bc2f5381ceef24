import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';
import { columnChunks, joinFile, parseLayout, rowGroups, spliceBody } from '../fuzz/parquet-layout.js';
import { T, child, encodeStruct, items, setInt, type TStruct } from '../fuzz/thrift-compact.js';

/**
 * Row groups read in slices (group-slices.ts, sliced-page.ts) find each column's chunk and each
 * page's values themselves; where a forged file makes them guess, they must guess as the page
 * guards and the whole-group reader do: a footer that breaks the link between a column and its
 * chunk is refused, not read as a column of nulls (which the engine would report as missing
 * values), and a page's values are read from the bytes the guards checked.
 */
const ROWS = 300;

function twoColumns(): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({
    columnData: [
      { name: 'id', data: Int32Array.from({ length: ROWS }, (_, i) => i), type: 'INT32', nullable: false },
      { name: 'kind', data: Array.from({ length: ROWS }, (_, i) => (i % 4 ? ['a', 'b'][i % 2]! : null)), type: 'STRING' },
    ],
    codec: 'UNCOMPRESSED',
  }));
}

/** A required dictionary-encoded string column, uncompressed v2 pages: a bit width, then runs. */
function requiredKinds(): Uint8Array {
  const data = Array.from({ length: ROWS }, (_, i) => ['a', 'b', 'c'][i % 3]!);
  return new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'kind', data, type: 'STRING', nullable: false, encoding: 'RLE_DICTIONARY' }], codec: 'UNCOMPRESSED' }));
}

/**
 * Its data page declaring 2 bytes of definition levels, which a required column has none of,
 * and a bit width and a run of 2^31 - 1 indices where those 2 bytes would end.
 */
function withForgedLevelLength(file: Uint8Array): Uint8Array {
  const layout = parseLayout(file);
  const page = layout.pages.find((p) => child(p.header, 8))!;
  const body = layout.body.slice();
  body.set([1, 0xfe, 0xff, 0xff, 0xff, 0x0f], page.headerEnd + 2);
  setInt(child(page.header, 8)!, 5, 2);
  return spliceBody({ ...layout, body }, page.headerStart, page.headerEnd, encodeStruct(page.header), page.chunk);
}

function withFooter(file: Uint8Array, edit: (footer: TStruct) => void): Uint8Array {
  const layout = parseLayout(file);
  edit(layout.footer);
  return joinFile(layout.body, layout.footer);
}

/** Rows read, or the UnreadableError's message; anything else thrown fails the test. */
async function outcome(bytes: Uint8Array, wholeGroupValues: number): Promise<string> {
  const file = openParquetFile(byteSourceFromBytes(bytes), { wholeGroupValues });
  try {
    let rows = 0;
    for await (const batch of file.batches(['id', 'kind'])) rows += batch.columns.has('kind') ? batch.rowCount : 0;
    return `read ${rows}`;
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'UnreadableError') throw error;
    return error.message;
  }
}

describe('reading row groups in slices from a forged file', () => {
  it('reads the valid file in slices as whole', async () => {
    expect(await outcome(twoColumns(), 0)).toBe(`read ${ROWS}`);
    expect(await outcome(twoColumns(), Infinity)).toBe(`read ${ROWS}`);
  });

  it('refuses a column chunk whose metadata a flipped type made 0, instead of throwing a TypeError', async () => {
    const file = withFooter(twoColumns(), (footer) => columnChunks(footer)[1]!.set(3, { type: T.I32, value: 0 }));
    expect(await outcome(file, 0)).toBe('row group 0 has no column chunk for "kind"');
    expect(await outcome(file, Infinity)).toMatch(/^cannot decode rows 0-299: /);
  });

  it('refuses a row group without a chunk for one of the columns, instead of reading it as nulls', async () => {
    const file = withFooter(twoColumns(), (footer) => void items(rowGroups(footer)[0], 1).splice(1, 1));
    expect(await outcome(file, 0)).toBe('row group 0 has no column chunk for "kind"');
    expect(await outcome(file, Infinity)).toBe('column "kind" has 0 values in rows 0-299; expected 300');
  });

  it('reads a required column\'s v2 values from where the guards checked them, as the whole-group reader does', async () => {
    const file = withForgedLevelLength(requiredKinds());
    const whole = await outcome(file, Infinity);
    expect(whole).toMatch(/^cannot decode rows 0-299: .*does not match header/);
    expect(await outcome(file, 0)).toBe(whole);
  });
});
