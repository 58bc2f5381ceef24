import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openJsonLinesFile } from '../../lib/formats/jsonl-file.js';
import { collect, jsonParsedRead, jsonReference, same } from './jsonl-parsed-reference.js';
import { prng, randomJsonl, TYPES } from './jsonl-random.js';

/**
 * JSON Lines read from their bytes (flat objects, json-object-bytes.ts) must read as JSON.parse
 * reads them, line by line, with the engine's JSON rules applied (coerce-value.ts): the same
 * values (Object.is), the same INVALID values, the same unreadable lines and reasons, the same
 * keys (see jsonl-parsed-reference.ts).
 */
const NAMES = Object.keys(TYPES);

describe('JSON Lines read from their bytes', () => {
  it('read as JSON.parse and the JSON rules read them, whatever the chunk and batch sizes', async () => {
    const draw = prng(4242);
    for (let file = 0; file < 60; file++) {
      const bytes = randomJsonl(draw);
      const expected = jsonReference(bytes, TYPES);
      for (const options of [{}, { chunkBytes: 1 }, { chunkBytes: 7, batchRows: 5 }]) {
        const actual = await jsonParsedRead(bytes, TYPES, options);
        expect(actual.keys, `keys of file ${file}`).toEqual(expected.keys);
        expect(actual.rows.length, `rows of file ${file}`).toBe(expected.rows.length);
        const differing = actual.rows.flatMap((row, r) => (same(row, expected.rows[r]) ? [] : [{ r, actual: row, expected: expected.rows[r] }]));
        expect(differing.slice(0, 3), `file ${file} ${JSON.stringify(options)}`).toEqual([]);
      }
    }
  });

  it('hands back the rows readRows asks for as a full read has them', async () => {
    const draw = prng(99);
    for (let file = 0; file < 20; file++) {
      const bytes = randomJsonl(draw);
      const table = openJsonLinesFile(byteSourceFromBytes(bytes), { chunkBytes: 5 });
      const full = await collect(table.batches(NAMES));
      const total = full.reduce((n, b) => n + b.rowCount, 0);
      const wanted = Array.from({ length: total }, (_, i) => i).filter((i) => i % 3 !== 1);
      const picked = await collect(table.readRows!(NAMES, wanted));
      expect(picked.map((b) => b.rowStart)).toEqual(wanted);
      for (const batch of picked) {
        const source = full.find((b) => batch.rowStart >= b.rowStart && batch.rowStart < b.rowStart + b.rowCount)!;
        const i = batch.rowStart - source.rowStart;
        expect(NAMES.map((n) => batch.columns.get(n)![0])).toEqual(NAMES.map((n) => source.columns.get(n)![i]));
        expect(batch.unreadableRows ?? []).toEqual((source.unreadableRows ?? []).filter((u) => u.row === batch.rowStart));
      }
    }
  });
});
