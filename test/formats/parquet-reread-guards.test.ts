import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';
import { columnChunks, joinFile, parseLayout } from '../fuzz/parquet-layout.js';
import { T, child, encodeStruct, setInt, type TStruct } from '../fuzz/thrift-compact.js';

/**
 * The engine re-reads single rows of a file it has read whole (to confirm a duplicate key). That
 * read must meet the same page guards as the first: an offset index is the file's own word for
 * where pages are, and a forged one can point at a page no walk over the chunks ever meets.
 */
const ROWS = 300;
const KINDS = ['a', 'b', 'c'];

/** A required, dictionary-encoded, uncompressed string column: its data page is a bit width, then runs. */
function kinds(): Uint8Array {
  const data = Array.from({ length: ROWS }, (_, i) => KINDS[i % 3]!);
  return new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'kind', data, type: 'STRING', nullable: false, encoding: 'RLE_DICTIONARY' }], codec: 'UNCOMPRESSED' }));
}

function location(offset: number, size: number, firstRow: number): TStruct {
  const struct: TStruct = new Map();
  setInt(struct, 1, offset, T.I64);
  setInt(struct, 2, size, T.I32);
  setInt(struct, 3, firstRow, T.I64);
  return struct;
}

/**
 * The file with a page appended after its chunk (bit width 1, then an RLE run of 2^30 indices)
 * and an offset index saying rows 1 on live there. hyparquet, following the index, would fill an
 * array of a billion entries and abort the process.
 */
function withForgedOffsetIndex(file: Uint8Array): Uint8Array {
  const layout = parseLayout(file);
  const page = layout.pages.find((p) => child(p.header, 8))!;
  const data = Uint8Array.of(1, 0x80, 0x80, 0x80, 0x80, 0x08, 0);
  const header: TStruct = new Map(page.header);
  setInt(header, 2, data.length);
  setInt(header, 3, data.length);
  const forgedPage = [...encodeStruct(header), ...data];
  const forgedAt = layout.body.length;
  const locations = [location(page.headerStart, page.dataEnd - page.headerStart, 0), location(forgedAt, forgedPage.length, 1)];
  const index = encodeStruct(new Map([[1, { type: T.LIST, value: { elem: T.STRUCT, items: locations } }]]));
  const chunk = columnChunks(layout.footer)[0]!;
  setInt(chunk, 4, forgedAt + forgedPage.length, T.I64);
  setInt(chunk, 5, index.length, T.I32);
  return joinFile(Uint8Array.from([...layout.body, ...forgedPage, ...index]), layout.footer);
}

describe('re-reading single rows of a Parquet file', () => {
  for (const [how, wholeGroupValues] of [['whole', Infinity], ['in slices', 0]] as const) {
    it(`reads them from the pages its chunks hold, not where a forged offset index points (groups read ${how})`, async () => {
      const file = openParquetFile(byteSourceFromBytes(withForgedOffsetIndex(kinds())), { wholeGroupValues });
      let rows = 0;
      for await (const batch of file.batches(['kind'])) rows += batch.rowCount;
      expect(rows).toBe(ROWS);
      const reread: unknown[] = [];
      for await (const batch of file.readRows!(['kind'], [5, 150, ROWS - 1])) reread.push(batch.rowStart, batch.columns.get('kind')?.[0]);
      expect(reread).toEqual([5, KINDS[5 % 3], 150, KINDS[150 % 3], ROWS - 1, KINDS[(ROWS - 1) % 3]]);
    });
  }
});
