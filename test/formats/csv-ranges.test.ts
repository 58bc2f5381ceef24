import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes, type ByteSource } from '../../lib/formats/byte-source.js';
import { openCsvFile, type CsvOptions } from '../../lib/formats/csv-file.js';
import { csvRanges } from '../../lib/formats/csv-ranges.js';
import type { TextRange } from '../../lib/formats/table-file.js';
import type { BatchOptions, ColumnBatch } from '../../lib/formats/table-file.js';
import { columnTypes } from './csv-parsed-reference.js';

/**
 * A CSV file cut into byte ranges (for worker threads) must read, range by range, exactly as it
 * reads whole: the same rows with the same values, rows and lines numbered as in the file, the
 * same unreadable rows, wherever the cuts fall (inside quoted newlines, at blank lines, after a
 * byte order mark) and whatever the chunk size.
 */
const encoder = new TextEncoder();

function rowsOf(count: number, row: (i: number) => string): string {
  return Array.from({ length: count }, (_, i) => row(i)).join('\n');
}

const FILES: Record<string, Uint8Array> = {
  'plain': encoder.encode(`id,name,at\n${rowsOf(400, (i) => `${i},n${i},2026-11-29 00:00:${String(i % 60).padStart(2, '0')}+00`)}\n`),
  'quoted newlines everywhere': encoder.encode(`id,note\n${rowsOf(300, (i) => (i % 3 === 0 ? `${i},"line\n${'x'.repeat(i % 17)}\n""q"""` : `${i},plain ${i}`))}\n`),
  'blank lines, CRLF, a BOM, no final newline': Uint8Array.from([0xef, 0xbb, 0xbf, ...encoder.encode(`id,name\r\n${rowsOf(300, (i) => (i % 5 === 0 ? `\r\n${i},n` : `${i},"n${i}"`))}`)]),
  'one column with blank lines': encoder.encode(`v\n${rowsOf(300, (i) => (i % 4 === 0 ? '' : String(i)))}\n`),
  'ragged rows and junk after quotes': encoder.encode(`a,b\n${rowsOf(300, (i) => (i % 7 === 0 ? `${i}` : i % 11 === 0 ? `${i},"x"y` : `${i},ok`))}\n`),
  'a quote left open near the end': encoder.encode(`a,b\n${rowsOf(200, (i) => `${i},v`)}\n201,"never closed\n${rowsOf(50, (i) => `${i},w`)}\n`),
};

async function collect(batches: AsyncIterable<ColumnBatch>): Promise<ColumnBatch[]> {
  const all: ColumnBatch[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

/** What a read amounts to, batch boundaries aside. */
function flatten(batches: readonly ColumnBatch[], columns: readonly string[]) {
  return {
    rows: batches.flatMap((b) => Array.from({ length: b.rowCount }, (_, i) => b.rowStart + i)),
    values: Object.fromEntries(columns.map((c) => [c, batches.flatMap((b) => Array.from(b.columns.get(c) ?? b.hashes?.get(c) ?? []))])),
    unreadable: batches.flatMap((b) => b.unreadableRows ?? []),
  };
}

async function readWhole(source: ByteSource, columns: readonly string[], options: BatchOptions, sizes: CsvOptions) {
  return flatten(await collect(openCsvFile(source, sizes).batches(columns, options)), columns);
}

async function readByRanges(source: ByteSource, ranges: readonly TextRange[], columns: readonly string[], options: BatchOptions, sizes: CsvOptions) {
  const batches: ColumnBatch[] = [];
  for (const range of ranges) batches.push(...(await collect(openCsvFile(source, sizes).batches(columns, { ...options, textRange: range }))));
  return flatten(batches, columns);
}

describe('csvRanges', () => {
  it.each(Object.entries(FILES))('cuts %s into ranges that read as the whole file does', async (_name, bytes) => {
    const source = byteSourceFromBytes(bytes);
    const schema = await openCsvFile(source).schema();
    const columns = schema.kind === 'text' ? schema.columns : [];
    const typed: BatchOptions = { parse: columnTypes(Object.fromEntries(columns.map((c) => [c, 'string']))) };
    for (const parts of [2, 3, 7]) {
      for (const sizes of [{}, { chunkBytes: 5 }]) {
        const ranges = await csvRanges(source, parts, sizes);
        expect(ranges[0]!.start).toBe(0);
        expect(ranges.at(-1)!.end).toBe(bytes.length);
        ranges.slice(1).forEach((range, i) => expect(range.start).toBe(ranges[i]!.end));
        expect(ranges.length).toBeGreaterThan(1);
        for (const options of [{}, typed]) {
          const ranged = await readByRanges(source, ranges, columns, options, { ...sizes, batchRows: 16 });
          const whole = await readWhole(source, columns, options, { batchRows: 16 });
          expect(ranged).toEqual(whole);
        }
      }
    }
  });

  it('numbers the rows and lines of a range from where it stands in the file', async () => {
    const source = byteSourceFromBytes(encoder.encode('a,b\n1,x\n"2\n2",y\n3\n4,z\n'));
    const ranges = await csvRanges(source, 2);
    expect(ranges).toEqual([{ start: 0, end: 16, firstRow: 0, firstLine: 1 }, { start: 16, end: 22, firstRow: 2, firstLine: 5 }]);
    const [batch] = await collect(openCsvFile(source).batches(['a'], { textRange: ranges[1] }));
    expect(batch!.rowStart).toBe(2);
    expect(batch!.unreadableRows).toEqual([{ row: 2, line: 5, reason: 'expected 2 fields as in the header, found 1 (check produces.csv.delimiter, quote and escape against how the file is written)' }]);
  });

  it('keeps a compressed file, or one too small to cut, whole', async () => {
    const gzip = byteSourceFromBytes(gzipSync(FILES.plain!));
    expect(await csvRanges(gzip, 4)).toEqual([{ start: 0, end: gzip.byteLength, firstRow: 0, firstLine: 1 }]);
    const tiny = byteSourceFromBytes(encoder.encode('a\n1\n'));
    expect((await csvRanges(tiny, 8)).map((r) => r.start)).toEqual([0, 2]);
    const empty = byteSourceFromBytes(new Uint8Array(0));
    expect(await csvRanges(empty, 3)).toEqual([{ start: 0, end: 0, firstRow: 0, firstLine: 1 }]);
  });
});
