import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openCsvFile, type CsvOptions } from '../../lib/formats/csv-file.js';
import type { ColumnBatch, TableFile } from '../../lib/formats/table-file.js';
import { collectBatches, recordingSource } from '../fixtures/table-files.js';

/**
 * readRows re-reads a few rows (the keys whose hashes repeated): it passes over the lines
 * between them by newline where no quote is ahead, record by record elsewhere. Whatever the
 * file holds (blank lines, quoted newlines, ragged and over-long records, CRLF), each row it
 * hands back must be that row exactly as a full read numbers and reads it.
 */
const encoder = new TextEncoder();

const FILES: Record<string, string> = {
  'plain': `id,name\n${Array.from({ length: 300 }, (_, i) => `${i},n${i}`).join('\n')}\n`,
  'blank lines, CRLF and no final newline': `id,name\r\n1,a\r\n\r\n2,b\n\n\n3,c\r\n4,"d"\r\n5,e`,
  'quoted newlines and quotes': `id,note\n1,"two\nlines"\n2,plain\n3,"say ""hi"""\n4,"a\r\n\r\nb"\n5,x\n6,"5"" pipe"\n`,
  'ragged and unterminated': `a,b\n1,x\n2\n3,y,z\n4,"x"y\n5,ok\n6,"never closed\n7,c\n`,
  'one column with blank lines': `v\nx\n\ny\n\n\nz\n`,
  'over-long records': `a,b\n1,short\n2,${'x'.repeat(300)}\n3,"${'y'.repeat(300)}\n${'z'.repeat(50)}"\n4,after\n`,
  'unicode': `id,name\n1,Zoë\n2,"東京, 日本"\n3,🎉\n4,ok\n`,
};

const SIZES: readonly CsvOptions[] = [{}, { chunkBytes: 1 }, { chunkBytes: 5 }, { chunkBytes: 64, maxRecordBytes: 100 }];

async function pick(file: TableFile, columns: readonly string[], rows: readonly number[]): Promise<ColumnBatch[]> {
  const batches: ColumnBatch[] = [];
  for await (const batch of file.readRows!(columns, rows)) batches.push(batch);
  return batches;
}

/** Row `row` of a full read, as a one-row batch. */
function rowOf(batches: readonly ColumnBatch[], columns: readonly string[], row: number) {
  const batch = batches.find((b) => row >= b.rowStart && row < b.rowStart + b.rowCount)!;
  const unreadable = (batch.unreadableRows ?? []).filter((u) => u.row === row);
  return {
    rowStart: row,
    rowCount: 1,
    columns: Object.fromEntries(columns.filter((c) => batch.columns.has(c)).map((c) => [c, [batch.columns.get(c)![row - batch.rowStart]]])),
    unreadable,
  };
}

function shape(batch: ColumnBatch) {
  return { rowStart: batch.rowStart, rowCount: batch.rowCount, columns: Object.fromEntries([...batch.columns].map(([c, v]) => [c, Array.from(v)])), unreadable: batch.unreadableRows ?? [] };
}

describe('readRows of a CSV file', () => {
  it.each(Object.entries(FILES))('hands back each asked row as a full read has it: %s', async (_name, text) => {
    for (const options of SIZES) {
      const file = openCsvFile(byteSourceFromBytes(encoder.encode(text)), options);
      const schema = await file.schema();
      const columns = schema.kind === 'text' ? schema.columns : [];
      const full = await collectBatches(file, columns);
      const total = full.reduce((n, b) => n + b.rowCount, 0);
      const every = Array.from({ length: total }, (_, i) => i);
      for (const rows of [every, every.filter((r) => r % 3 === 1), [total - 1], [0], [total + 5, 1, 1]]) {
        const expected = [...new Set(rows)].filter((r) => r < total).sort((a, b) => a - b).map((r) => rowOf(full, columns, r));
        expect((await pick(file, columns, rows)).map(shape), `${JSON.stringify(options)} rows ${rows.slice(0, 5)}`).toEqual(expected);
      }
    }
  });

  it('stops reading after the last row asked for', async () => {
    const text = `id,name\n${Array.from({ length: 5000 }, (_, i) => `${i},n${i}`).join('\n')}\n`;
    const source = recordingSource(encoder.encode(text));
    const [batch] = await pick(openCsvFile(source, { chunkBytes: 1000 }), ['name'], [10]);
    expect(Array.from(batch!.columns.get('name')!)).toEqual(['n10']);
    expect(source.reads.reduce((a, b) => a + b, 0)).toBeLessThan(text.length / 5);
  });
});
