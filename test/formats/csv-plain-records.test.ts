import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openCsvFile, type CsvOptions } from '../../lib/formats/csv-file.js';
import type { ColumnBatch } from '../../lib/formats/table-file.js';
import { bytesOf } from '../fixtures/table-files.js';
import { expectParsedLikeText } from './csv-parsed-reference.js';

/**
 * Batches take plain records (unquoted, ASCII or valid UTF-8, as many fields as the header) by a
 * fast road of their own, and leave every other record to the scanner's state machine; readRows
 * takes every record by the state machine. Over random files mixing both kinds of record, in
 * every way they can border each other, the two roads must read the same rows.
 */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

const FIELDS: readonly (string | readonly number[])[] = [
  '12', '-0.50', '', '2026-11-29 10:00:00.5+00', '2026-11-29T10:00', 'x', 'Zoë', '東京', '🎉', '"q, uoted"', '"a ""b"""',
  '"multi\nline"', '5" pipe', ' ', 'true', '1e5', '9007199254740993', [0xff], [0xc3], [0xe6, 0x9d], '"x"y', '\r',
];

/** A random file of `columns` columns: mostly well-formed rows, some ragged, blank or broken. */
function randomCsv(draw: () => number, columns: number): Uint8Array {
  const parts: (string | readonly number[])[] = [Array.from({ length: columns }, (_, k) => `c${k}`).join(','), '\n'];
  const rows = 20 + Math.floor(draw() * 200);
  for (let row = 0; row < rows; row++) {
    const shape = draw();
    const count = shape < 0.05 ? columns - 1 : shape < 0.1 ? columns + 1 : columns;
    if (shape > 0.97) parts.push(draw() < 0.5 ? '' : '\r');
    else {
      for (let k = 0; k < count; k++) {
        if (k > 0) parts.push(',');
        parts.push(draw() < 0.6 ? String(Math.floor(draw() * 1000)) : FIELDS[Math.floor(draw() * FIELDS.length)]!);
      }
    }
    if (row < rows - 1 || draw() < 0.7) parts.push(draw() < 0.2 ? '\r\n' : '\n');
  }
  return bytesOf(parts);
}

async function collect(batches: AsyncIterable<ColumnBatch>): Promise<ColumnBatch[]> {
  const all: ColumnBatch[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

/** Every row as the batches read it, and as readRows reads it: [row, values, unreadable reason]. */
async function bothRoads(bytes: Uint8Array, columns: readonly string[], sizes: CsvOptions) {
  const file = openCsvFile(byteSourceFromBytes(bytes), sizes);
  const rows = (batches: readonly ColumnBatch[]) => batches.flatMap((b) => Array.from({ length: b.rowCount }, (_, i) => [
    b.rowStart + i,
    columns.map((c) => b.columns.get(c)?.[i]),
    (b.unreadableRows ?? []).find((u) => u.row === b.rowStart + i) ?? null,
  ]));
  const fast = rows(await collect(file.batches(columns)));
  const slow = rows(await collect(file.readRows!(columns, Array.from({ length: bytes.length + 1 }, (_, i) => i))));
  return { fast, slow };
}

describe('the fast road for plain records', () => {
  it.each([1, 2, 3, 6])('reads random %i-column files as the state machine does, at any chunk size', async (columns) => {
    const draw = prng(columns * 1_000_003);
    const names = Array.from({ length: columns }, (_, k) => `c${k}`);
    for (let file = 0; file < 40; file++) {
      const bytes = randomCsv(draw, columns);
      for (const sizes of [{}, { chunkBytes: 1 }, { chunkBytes: 7, batchRows: 5 }, { chunkBytes: 64, maxRecordBytes: 30 }]) {
        const { fast, slow } = await bothRoads(bytes, names, sizes);
        expect(fast, `file ${file} ${JSON.stringify(sizes)}`).toEqual(slow);
      }
    }
  });

  it('parses random files exactly as the text rules read what the state machine reads', async () => {
    const draw = prng(77);
    const types = { c0: 'int64', c1: 'decimal(12,2)', c2: 'timestamp', c3: 'string', c4: 'float64', c5: 'boolean' };
    for (let file = 0; file < 30; file++) {
      await expectParsedLikeText(randomCsv(draw, 6), types, [], [{}, { chunkBytes: 3, batchRows: 11 }]);
      await expectParsedLikeText(randomCsv(draw, 6), { ...types, c3: 'string' }, ['c3'], [{ chunkBytes: 5 }]);
    }
  });
});
