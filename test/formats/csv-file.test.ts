import { describe, expect, it } from 'vitest';
import { openCsvFile } from '../../lib/formats/csv-file.js';
import { UnreadableError } from '../../lib/formats/table-file.js';
import { collectBatches, columnValues, inMemory, recordingSource, unreadableRows } from '../fixtures/table-files.js';

const encoder = new TextEncoder();
const { text: csv, bytes: csvBytes } = inMemory(openCsvFile);

describe('openCsvFile', () => {
  it('reports the header names as text columns', async () => {
    await expect(csv('id,name,amount\n1,a,2\n').schema()).resolves.toEqual({ kind: 'text', columns: ['id', 'name', 'amount'] });
  });

  it('yields the requested columns as strings in row order', async () => {
    const batches = await collectBatches(csv('id,name\n1,ann\n2,bob\n'), ['name', 'id']);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.rowStart).toBe(0);
    expect(batches[0]!.rowCount).toBe(2);
    expect(batches[0]!.columns.get('id')).toEqual(['1', '2']);
    expect(batches[0]!.columns.get('name')).toEqual(['ann', 'bob']);
    expect(batches[0]!.unreadableRows).toBeUndefined();
  });

  it('leaves a requested column the header lacks out of the batch', async () => {
    const [batch] = await collectBatches(csv('id\n1\n'), ['id', 'missing']);
    expect([...batch!.columns.keys()]).toEqual(['id']);
  });

  it('reads quoted fields with commas, doubled quotes and newlines', async () => {
    const file = csv('id,note\n1,"a, b"\n2,"say ""hi"""\n3,"two\nlines"\n4,"crlf\r\ninside"\n');
    expect(await columnValues(file, 'note')).toEqual(['a, b', 'say "hi"', 'two\nlines', 'crlf\r\ninside']);
  });

  it('reads an empty unquoted field as null and an empty quoted field as the empty string', async () => {
    const file = csv('a,b,c\n,"",x\n"",,\n');
    expect(await columnValues(file, 'a')).toEqual([null, '']);
    expect(await columnValues(file, 'b')).toEqual(['', null]);
    expect(await columnValues(file, 'c')).toEqual(['x', null]);
  });

  it('takes a quote inside an unquoted field literally', async () => {
    expect(await columnValues(csv('size\n5" pipe\n'), 'size')).toEqual(['5" pipe']);
  });

  it('drops the CR of CRLF line endings, also after a quoted field and at the end of the file', async () => {
    const file = csv('a,b\r\n1,"x"\r\n2,\r\n3,y\r');
    expect(await columnValues(file, 'a')).toEqual(['1', '2', '3']);
    expect(await columnValues(file, 'b')).toEqual(['x', null, 'y']);
  });

  it('skips a UTF-8 byte order mark before the header', async () => {
    const file = csvBytes([[0xef, 0xbb, 0xbf], 'id,name\n1,a\n']);
    await expect(file.schema()).resolves.toEqual({ kind: 'text', columns: ['id', 'name'] });
    expect(await columnValues(file, 'id')).toEqual(['1']);
  });

  it('reads a last record that has no newline after it, including a trailing empty field', async () => {
    expect(await columnValues(csv('a,b\n1,'), 'b')).toEqual([null]);
    expect(await columnValues(csv('a,b\n1,"q"'), 'b')).toEqual(['q']);
  });

  it('reads a blank line of a one-column file as a null row, as DuckDB writes a null there', async () => {
    expect(await columnValues(csv('a\nx\n\ny\n'), 'a')).toEqual(['x', null, 'y']);
    expect(await columnValues(csv('a\nx\n\n'), 'a')).toEqual(['x', null]);
  });

  it('skips blank lines of a file with several columns without counting them as rows', async () => {
    const batches = await collectBatches(csv('a,b\n1,x\n\n\r\n2,y\n\n'), ['a']);
    expect(batches[0]!.rowCount).toBe(2);
    expect(batches[0]!.columns.get('a')).toEqual(['1', '2']);
  });

  it('reports a ragged row as unreadable, keeping its row index, and reads the rows after it', async () => {
    const [batch] = await collectBatches(csv('a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n'), ['a']);
    expect(batch!.rowCount).toBe(4);
    expect(batch!.columns.get('a')).toEqual(['1', undefined, undefined, '10']);
    expect(batch!.unreadableRows).toEqual([
      { row: 1, line: 3, reason: 'expected 3 fields as in the header, found 2 (check produces.csv.delimiter, quote and escape against how the file is written)' },
      { row: 2, line: 4, reason: 'expected 3 fields as in the header, found 4 (check produces.csv.delimiter, quote and escape against how the file is written)' },
    ]);
  });

  it('reports an unterminated quote as one unreadable row starting where the record starts', async () => {
    const [batch] = await collectBatches(csv('a,b\n1,x\n2,"open\n3,y\n4,z\n'), ['a']);
    expect(batch!.rowCount).toBe(2);
    expect(batch!.columns.get('a')).toEqual(['1', undefined]);
    expect(batch!.unreadableRows).toEqual([
      { row: 1, line: 3, reason: 'unterminated quoted field: the quote opened in field 2 on line 3 is never closed (check produces.csv.quote and produces.csv.escape against how the file is written)' },
    ]);
  });

  it('reports text after a closing quote as an unreadable row', async () => {
    const rows = await unreadableRows(csv('a,b\n"x"y,1\n2,3\n'));
    expect(rows).toEqual([{ row: 0, line: 2, reason: 'unexpected character after the closing quote of field 1 (check produces.csv.quote and produces.csv.escape against how the file is written)' }]);
  });

  it('reports invalid UTF-8 in a record as an unreadable row naming the field', async () => {
    const file = csvBytes(['a,b\n1,ok\n2,', [0xff, 0xfe], '\n3,fine\n']);
    const [batch] = await collectBatches(file, ['b']);
    expect(batch!.columns.get('b')).toEqual(['ok', undefined, 'fine']);
    expect(batch!.unreadableRows).toEqual([{ row: 1, line: 3, reason: 'invalid UTF-8 in field 2: if the file is written in another encoding, set produces.csv.encoding (e.g. windows-1252, as Excel writes on Windows, or latin1)' }]);
  });

  it('decodes multi-byte UTF-8 values', async () => {
    expect(await columnValues(csv('name\n"Zoë, 東京"\ncafé 🎉\n'), 'name')).toEqual(['Zoë, 東京', 'café 🎉']);
  });

  it('skips an over-long record without buffering it and still reads the rows after it', async () => {
    const long = `2,"${'x'.repeat(5000)}\n${'y'.repeat(5000)}"`;
    const source = recordingSource(encoder.encode(`a,b\n1,short\n${long}\n3,after\n`));
    const [batch] = await collectBatches(openCsvFile(source, { maxRecordBytes: 100, chunkBytes: 64 }), ['a']);
    expect(batch!.columns.get('a')).toEqual(['1', undefined, '3']);
    expect(batch!.unreadableRows).toEqual([{ row: 1, line: 3, reason: 'record is longer than the 100-byte limit (maxRecordBytes)' }]);
    expect(Math.max(...source.reads)).toBeLessThanOrEqual(64);
  });

  it('reports a record over the limit even when it arrives within one chunk', async () => {
    const rows = await unreadableRows(csv(`a\n${'z'.repeat(30)}\nok\n`, { maxRecordBytes: 10 }));
    expect(rows).toEqual([{ row: 0, line: 2, reason: 'record is longer than the 10-byte limit (maxRecordBytes)' }]);
  });

  it('splits rows into batches of batchRows with rowStart counting data records', async () => {
    const batches = await collectBatches(csv('n\n0\n1\n2\n3\n4\n', { batchRows: 2 }), ['n']);
    expect(batches.map((b) => [b.rowStart, b.rowCount])).toEqual([[0, 2], [2, 2], [4, 1]]);
    expect(batches.map((b) => b.columns.get('n'))).toEqual([['0', '1'], ['2', '3'], ['4']]);
  });

  it('reads the same values whatever the chunk size, across multi-byte characters and quoted newlines', async () => {
    const text = 'id,text\n1,"a\r\nb"\n2,"€uro, ""q"""\n3,日本\n4,\n';
    for (let chunkBytes = 1; chunkBytes <= 9; chunkBytes++) {
      const batches = await collectBatches(csv(text, { chunkBytes, batchRows: 2 }), ['id', 'text']);
      expect(batches.flatMap((b) => Array.from(b.columns.get('text')!))).toEqual(['a\r\nb', '€uro, "q"', '日本', null]);
      expect(batches.map((b) => b.rowStart)).toEqual([0, 2]);
    }
  });

  it('reads the source in bounded slices, never whole', async () => {
    const text = `a,b\n${Array.from({ length: 2000 }, (_, i) => `${i},v${i}`).join('\n')}\n`;
    const source = recordingSource(encoder.encode(text));
    const values = await columnValues(openCsvFile(source, { chunkBytes: 1000 }), 'b');
    expect(values).toHaveLength(2000);
    expect(values[1999]).toBe('v1999');
    expect(Math.max(...source.reads)).toBe(1000);
  });

  it('counts the lines of quoted newlines when numbering later records', async () => {
    const rows = await unreadableRows(csv('a,b\n"multi\nline\ntext",1\n2\n'));
    expect(rows).toEqual([{ row: 1, line: 5, reason: 'expected 2 fields as in the header, found 1 (check produces.csv.delimiter, quote and escape against how the file is written)' }]);
  });

  it('rejects a header with a duplicate column name, naming both positions', async () => {
    const file = csv('id,a,b,c,id\n1,2,3,4,5\n');
    await expect(file.schema()).rejects.toThrow(new UnreadableError('duplicate column "id" in the header (columns 1 and 5)'));
    await expect(collectBatches(file, ['a'])).rejects.toThrow(UnreadableError);
  });

  it('rejects an empty file, a file holding only a byte order mark, and an empty header line', async () => {
    await expect(csv('').schema()).rejects.toThrow(/CSV file is empty/);
    await expect(csvBytes([[0xef, 0xbb, 0xbf]]).schema()).rejects.toThrow(/CSV file is empty/);
    await expect(collectBatches(csv(''), ['a'])).rejects.toThrow(/CSV file is empty/);
    await expect(csv('\na,b\n').schema()).rejects.toThrow(/header \(line 1\) is empty/);
  });

  it('rejects a header column without a name', async () => {
    await expect(csv('a,,b\n').schema()).rejects.toThrow('column 2 of the CSV header has no name');
  });

  it('rejects a header it cannot read', async () => {
    await expect(csv('a,"b\n1,2\n').schema()).rejects.toThrow(/header \(line 1\) cannot be read: unterminated quoted field/);
  });

  it('yields nothing for a file with only a header', async () => {
    expect(await collectBatches(csv('a,b\n'), ['a'])).toEqual([]);
  });

  it.each([
    ['semicolon', 'id;name;amount\n1;a;2\n'],
    ['tab', 'id\tname\n1\ta\n'],
    ['pipe', 'id|name\n1|a\n'],
  ])('refuses a %s-separated file, whose header is one column, naming the delimiter to set', async (name, text) => {
    await expect(csv(text).schema()).rejects.toThrow(new RegExp(`^the CSV header .* is one column; it looks ${name}-separated, and the contract reads it comma-separated: set produces\\.csv\\.delimiter: `));
    await expect(collectBatches(csv(text), ['id'])).rejects.toThrow(UnreadableError);
  });

  it('reads a one-column file whose header holds a delimiter only at its edge as that column', async () => {
    await expect(csv('total;\n1\n').schema()).resolves.toEqual({ kind: 'text', columns: ['total;'] });
  });

  it('names the doubled-quote form when a quote inside a field was escaped with a backslash', async () => {
    const rows = await unreadableRows(csv('a,b\n1,"say \\"hi\\""\n2,ok\n'));
    expect(rows).toEqual([{ row: 0, line: 2, reason: 'unexpected character after the closing quote of field 2 (a quote escaped as \\"? set produces.csv.escape: \'\\\' as the file is written, e.g. by DuckDB\'s ESCAPE \'\\\')' }]);
  });
});

