import { describe, expect, it } from 'vitest';
import { openJsonLinesFile } from '../../lib/formats/jsonl-file.js';
import { collectBatches, columnValues, inMemory, recordingSource } from '../fixtures/table-files.js';

const encoder = new TextEncoder();
const { text: jsonl, bytes: jsonlBytes } = inMemory(openJsonLinesFile);

describe('openJsonLinesFile', () => {
  it('reports a dynamic schema, even for an empty file', async () => {
    await expect(jsonl('').schema()).resolves.toEqual({ kind: 'dynamic' });
    expect(await collectBatches(jsonl(''), ['a'])).toEqual([]);
  });

  it('yields the JSON value of each requested key, null as null and an absent key as undefined', async () => {
    const [batch] = await collectBatches(jsonl('{"a":1,"b":"x"}\n{"a":null,"c":[1,{"d":true}]}\n{}\n'), ['a', 'b', 'c']);
    expect(batch!.rowStart).toBe(0);
    expect(batch!.rowCount).toBe(3);
    expect(batch!.columns.get('a')).toEqual([1, null, undefined]);
    expect(batch!.columns.get('b')).toEqual(['x', undefined, undefined]);
    expect(batch!.columns.get('c')).toEqual([undefined, [1, { d: true }], undefined]);
    expect(batch!.unreadableRows).toBeUndefined();
  });

  it('does not mistake inherited object properties for keys', async () => {
    expect(await columnValues(jsonl('{"a":1}\n'), 'toString')).toEqual([undefined]);
  });

  it('lists every top-level key seen in the batch', async () => {
    const [batch] = await collectBatches(jsonl('{"a":1,"b":{"nested":2}}\n{"c":3}\n[1]\n'), ['a']);
    expect([...batch!.keys!].sort()).toEqual(['a', 'b', 'c']);
  });

  it('reports lines that are valid JSON but no object as unreadable rows', async () => {
    const [batch] = await collectBatches(jsonl('{"a":1}\n[1,2]\n42\n"text"\nnull\ntrue\n{"a":2}\n'), ['a']);
    expect(batch!.columns.get('a')).toEqual([1, undefined, undefined, undefined, undefined, undefined, 2]);
    expect(batch!.unreadableRows).toEqual([
      { row: 1, line: 2, reason: 'line 2 is not a JSON object: found an array' },
      { row: 2, line: 3, reason: 'line 3 is not a JSON object: found a number' },
      { row: 3, line: 4, reason: 'line 4 is not a JSON object: found a string' },
      { row: 4, line: 5, reason: 'line 5 is not a JSON object: found null' },
      { row: 5, line: 6, reason: 'line 6 is not a JSON object: found a boolean' },
    ]);
  });

  it('reports a line that is not valid JSON with the parser message', async () => {
    const [batch] = await collectBatches(jsonl('{"a":1}\n{"a":}\n{"a":3}\n'), ['a']);
    expect(batch!.columns.get('a')).toEqual([1, undefined, 3]);
    expect(batch!.unreadableRows).toHaveLength(1);
    expect(batch!.unreadableRows![0]).toMatchObject({ row: 1, line: 2, reason: expect.stringMatching(/^invalid JSON: \S/) });
  });

  it('skips blank lines, counting rows by non-blank lines and lines physically', async () => {
    const [batch] = await collectBatches(jsonl('\n{"a":1}\n  \t\n\r\n[]\n\n{"a":2}\n\n'), ['a']);
    expect(batch!.rowCount).toBe(3);
    expect(batch!.columns.get('a')).toEqual([1, undefined, 2]);
    expect(batch!.unreadableRows).toEqual([{ row: 1, line: 5, reason: 'line 5 is not a JSON object: found an array' }]);
  });

  it('drops the CR of CRLF line endings and skips a byte order mark', async () => {
    const file = jsonlBytes([[0xef, 0xbb, 0xbf], '{"a":"x"}\r\n{"a":"y"}\r\n']);
    expect(await columnValues(file, 'a')).toEqual(['x', 'y']);
  });

  it('reads a last line that has no newline after it', async () => {
    expect(await columnValues(jsonl('{"a":1}\n{"a":2}'), 'a')).toEqual([1, 2]);
  });

  it('reports a line with invalid UTF-8 as an unreadable row', async () => {
    const [batch] = await collectBatches(jsonlBytes(['{"a":"ok"}\n{"a":"', [0xc3, 0x28], '"}\n{"a":"é"}\n']), ['a']);
    expect(batch!.columns.get('a')).toEqual(['ok', undefined, 'é']);
    expect(batch!.unreadableRows).toEqual([{ row: 1, line: 2, reason: 'line 2 is not valid UTF-8' }]);
  });

  it('skips an over-long line without buffering it and still reads the lines after it', async () => {
    const source = recordingSource(encoder.encode(`{"a":1}\n{"a":"${'x'.repeat(10_000)}"}\n{"a":3}\n`));
    const [batch] = await collectBatches(openJsonLinesFile(source, { maxLineBytes: 100, chunkBytes: 64 }), ['a']);
    expect(batch!.columns.get('a')).toEqual([1, undefined, 3]);
    expect(batch!.unreadableRows).toEqual([{ row: 1, line: 2, reason: 'line is longer than the 100-byte limit (maxLineBytes)' }]);
    expect(Math.max(...source.reads)).toBeLessThanOrEqual(64);
  });

  it('reports an over-long last line that has no newline after it', async () => {
    const [batch] = await collectBatches(jsonl(`{"a":1}\n{"a":"${'x'.repeat(500)}"}`, { maxLineBytes: 100, chunkBytes: 16 }), ['a']);
    expect(batch!.unreadableRows).toEqual([{ row: 1, line: 2, reason: 'line is longer than the 100-byte limit (maxLineBytes)' }]);
  });

  it('splits rows into batches of batchRows, each with its own keys', async () => {
    const batches = await collectBatches(jsonl('{"a":0}\n{"a":1,"b":1}\n\n{"c":2}\n{"a":3}\n{"d":4}\n', { batchRows: 2 }), ['a']);
    expect(batches.map((b) => [b.rowStart, b.rowCount])).toEqual([[0, 2], [2, 2], [4, 1]]);
    expect(batches.map((b) => b.columns.get('a'))).toEqual([[0, 1], [undefined, 3], [undefined]]);
    expect(batches.map((b) => [...b.keys!].sort())).toEqual([['a', 'b'], ['a', 'c'], ['d']]);
  });

  it('reads the same rows whatever the chunk size, across multi-byte characters and CRLF', async () => {
    const text = '{"name":"Zoë"}\r\n\n{"name":"東京 🎉"}\r\n{"name":null}';
    for (let chunkBytes = 1; chunkBytes <= 9; chunkBytes++) {
      const batches = await collectBatches(jsonl(text, { chunkBytes, batchRows: 2 }), ['name']);
      expect(batches.flatMap((b) => Array.from(b.columns.get('name')!))).toEqual(['Zoë', '東京 🎉', null]);
      expect(batches.map((b) => b.rowStart)).toEqual([0, 2]);
    }
  });

  it('reads the source in bounded slices, never whole', async () => {
    const text = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i })).join('\n');
    const source = recordingSource(encoder.encode(text));
    const values = await columnValues(openJsonLinesFile(source, { chunkBytes: 1000 }), 'i');
    expect(values).toHaveLength(3000);
    expect(values[2999]).toBe(2999);
    expect(Math.max(...source.reads)).toBe(1000);
  });

  it('reads bare NaN, Infinity and -Infinity as DuckDB and Python write them, leaving strings that spell them alone', async () => {
    const file = jsonl('{"f":NaN,"s":"NaN, Infinity"}\n{"f":Infinity,"s":"-Infinity"}\n{"f":-Infinity,"s":"x"}\n{"f":1.5,"s":"y"}\n');
    expect(await columnValues(file, 'f')).toEqual([NaN, Infinity, -Infinity, 1.5]);
    expect(await columnValues(file, 's')).toEqual(['NaN, Infinity', '-Infinity', 'x', 'y']);
  });

  it('keeps integer literals past 2^53 exact as bigints, where JSON.parse would round two ids into one', async () => {
    const file = jsonl('{"id":123456789012345678,"n":9007199254740991}\n{"id":123456789012345677,"n":-9223372036854775808}\n');
    expect(await columnValues(file, 'id')).toEqual([123456789012345678n, 123456789012345677n]);
    expect(await columnValues(file, 'n')).toEqual([9007199254740991, -9223372036854775808n]);
  });

  it('reads NaN nested in a value as a string, so the row stays readable and its sample shows it', async () => {
    expect(await columnValues(jsonl('{"a":[1,NaN,{"b":-Infinity}],"c":NaN}\n'), 'a')).toEqual([[1, 'NaN', { b: '-Infinity' }]]);
  });

  it('reports a broken line that also holds NaN with the parser message about the line as written', async () => {
    const [batch] = await collectBatches(jsonl('{"a":NaN,}\n{"a":"\\u0000NaN","b":NaN}\n'), ['a']);
    expect(batch!.unreadableRows).toEqual([
      { row: 0, line: 1, reason: expect.stringMatching(/^invalid JSON: .*(position|JSON)/) },
      { row: 1, line: 2, reason: expect.stringMatching(/^invalid JSON: /) },
    ]);
  });

  it('reads a line of many chunks whole, within the limit', async () => {
    const long = 'x'.repeat(5000);
    expect(await columnValues(jsonl(`{"a":"${long}"}\n{"a":"y"}\n`, { chunkBytes: 7 }), 'a')).toEqual([long, 'y']);
  });
});

