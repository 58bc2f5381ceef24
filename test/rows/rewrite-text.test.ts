import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rewriteWithout } from '../../lib/rows/rewrite-file.js';
import { collect } from './rewrite-helpers.js';
import { bytesOf, CSV_MIXED, CSV_ONE_COLUMN, gzipped, JSONL_MIXED, parts, readerRows, rowCount, source, type TextPart } from './text-cases.js';

async function rewritten(format: 'csv' | 'jsonl', bytes: Uint8Array, rows: readonly number[], options = {}): Promise<Buffer> {
  return Buffer.from((await collect((await rewriteWithout(format, source(bytes), rows, options)).chunks)).bytes);
}

/** Every way to pick rows worth trying on a small file: none, each alone, first and last, all. */
function picks(count: number): number[][] {
  const all = Array.from({ length: count }, (_, i) => i);
  return [[], ...all.map((i) => [i]), [0, count - 1], all.filter((i) => i % 2 === 0), all];
}

const cases: { name: string; format: 'csv' | 'jsonl'; file: TextPart[]; column: string }[] = [
  { name: 'a CSV with a BOM, CRLF, quoted newlines, a blank line, a ragged record and no final newline', format: 'csv', file: CSV_MIXED, column: 'id' },
  { name: 'a one-column CSV, whose blank lines are rows', format: 'csv', file: CSV_ONE_COLUMN, column: 'v' },
  { name: 'JSON Lines with a BOM, CRLF, blank lines, lines that are no object and no final newline', format: 'jsonl', file: JSONL_MIXED, column: 'id' },
];

describe.each(cases)('$name', ({ format, file, column }) => {
  const bytes = bytesOf(file);
  const count = rowCount(file);

  it('counts its rows as the checker does', async () => {
    expect(await readerRows(format, bytes, column)).toHaveLength(count);
  });

  it.each(picks(count))('without rows %j is the same bytes minus exactly those lines', async (...rows) => {
    expect((await rewritten(format, bytes, rows)).toString('utf8')).toBe(bytesOf(file, new Set(rows)).toString('utf8'));
  });

  it('without some rows reads back in the checker as its rows minus those', async () => {
    const rows = [0, count - 2];
    const before = await readerRows(format, bytes, column);
    expect(await readerRows(format, await rewritten(format, bytes, rows), column)).toEqual(before.filter((_, i) => !rows.includes(i)));
  });

  it('gzip-compressed, is inflated, cut and compressed again', async () => {
    const rows = [1, count - 1];
    const out = await rewritten(format, gzipped(bytes), rows);
    expect(out.subarray(0, 2)).toEqual(Buffer.of(0x1f, 0x8b));
    expect(gunzipSync(out).toString('utf8')).toBe(bytesOf(file, new Set(rows)).toString('utf8'));
  });

  it('read a few bytes at a time, cuts at the same lines', async () => {
    for (const rows of picks(count)) {
      expect((await rewritten(format, bytes, rows, { chunkBytes: 3 })).toString('utf8'), JSON.stringify(rows)).toBe(bytesOf(file, new Set(rows)).toString('utf8'));
    }
  });

  it('zstd-compressed, is refused before any byte, to be quarantined whole rather than published as plain text', async () => {
    // The magic number is all the refusal reads: it comes before any decoding.
    const zstd = Buffer.concat([Buffer.of(0x28, 0xb5, 0x2f, 0xfd), bytes]);
    await expect(rewriteWithout(format, source(zstd), [0])).rejects.toMatchObject({ code: 'unsupported', message: expect.stringContaining('zstd-compressed text') });
  });

  it('refuses row numbers past its last row', async () => {
    await expect(rewriteWithout(format, source(bytes), [count]).then((r) => collect(r.chunks))).rejects.toMatchObject({ code: 'bad_arguments' });
  });
});

describe('a row over the record limit', () => {
  const long = 'x'.repeat(200);
  const csv = parts(['id,text\n', 'not a row'], '1,short\n', `2,${long}\n`, '3,short\n');
  const jsonl = parts('{"id":1}\n', `{"id":2,"s":"${long}"}\n`, `{"id":3,"s":"${long}"}\n`, '{"id":4}\n');
  const small = { maxRecordBytes: 64, chunkBytes: 16 };

  it.each([['csv', csv, [1]], ['jsonl', jsonl, [1, 2]]] as const)('in %s can be withheld though its bytes were passed over', async (format, file, rows) => {
    expect((await rewritten(format, bytesOf(file), rows, small)).toString('utf8')).toBe(bytesOf(file, new Set(rows)).toString('utf8'));
  });

  it.each([['csv', csv, [0]], ['jsonl', jsonl, [0]]] as const)('in %s is copied whole when no withheld row follows it', async (format, file, rows) => {
    expect((await rewritten(format, bytesOf(file), rows, small)).toString('utf8')).toBe(bytesOf(file, new Set(rows)).toString('utf8'));
  });

  it.each([['csv', csv, [2]], ['jsonl', jsonl, [3]]] as const)('in %s cannot be kept before a withheld row: the rewrite is refused, not published short', async (format, file, rows) => {
    await expect(rewritten(format, bytesOf(file), rows, small)).rejects.toMatchObject({ code: 'unsupported' });
  });

  it('in JSON Lines, next to another long line, cannot be told apart from it', async () => {
    await expect(rewritten('jsonl', bytesOf(jsonl), [1], small)).rejects.toMatchObject({ code: 'unsupported' });
  });
});

describe('a text file of many parts', () => {
  it('comes in chunks of the part size but the last, whose bytes are the rewrite', async () => {
    const file = parts(['id,text\n', 'not a row'], ...Array.from({ length: 5000 }, (_, i) => `${i},"row ${i} with, a comma"\n`));
    const rows = [0, 17, 2500, 4999];
    const result = await collect((await rewriteWithout('csv', source(bytesOf(file)), rows, { partBytes: 10_000, chunkBytes: 4096 })).chunks);
    expect(result.chunkSizes.slice(0, -1).every((size) => size === 10_000)).toBe(true);
    expect(result.chunkSizes.at(-1)).toBeLessThanOrEqual(10_000);
    expect(Buffer.from(result.bytes).equals(bytesOf(file, new Set(rows)))).toBe(true);
  });
});
