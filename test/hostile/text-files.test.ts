import { describe, expect, it } from 'vitest';
import { contractFrom, counts, memoryFile, validate } from '../fixtures/partition.js';
import { syntheticFile, syntheticSource, type Piece } from './synthetic-source.js';

const EVENTS = (format: 'csv' | 'jsonl') => contractFrom(`
name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: ${format} }
schema:
  grain: [id]
  columns:
    - { name: id, type: int64, required: true }
    - { name: kind, type: string, pattern: "^[a-z]+$" }
`);

const GIB = 2 ** 30;
const X = 0x78;
/** The readers keep at most a 16 MiB record (doubled while growing) and a 1 MiB chunk; the rest is headroom for the runtime. */
const RSS_BUDGET_BYTES = 200 * 2 ** 20;

function bytes(...parts: (string | number[])[]): Uint8Array {
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
}

/** Samples of one rule, as `line N: reason` for unreadable rows. */
function samples(report: Awaited<ReturnType<typeof validate>>, rule: string): unknown[] {
  return report.violations.filter((v) => v.rule === rule).flatMap((v) => v.samples.map((s) => s.value));
}

describe('hostile CSV is reported as violations', () => {
  it('reports ragged rows, junk after a quote and an unterminated quote row by row and checks the rest', async () => {
    const csv = 'id,kind\n1,a\n2\n3,b,c\n4,"x"y\n5,B!\n6,"never closed\n7,c\n';
    const report = await validate(EVENTS('csv'), [memoryFile('e.csv', csv)]);
    expect(counts(report)).toEqual({ unreadable: 4, 'pattern:kind': 1 });
    expect(samples(report, 'unreadable')).toEqual([
      'line 3: expected 2 fields as in the header, found 1 (check produces.csv.delimiter, quote and escape against how the file is written)',
      'line 4: expected 2 fields as in the header, found 3 (check produces.csv.delimiter, quote and escape against how the file is written)',
      'line 5: unexpected character after the closing quote of field 2 (check produces.csv.quote and produces.csv.escape against how the file is written)',
      'line 7: unterminated quoted field: the quote opened in field 2 on line 7 is never closed (check produces.csv.quote and produces.csv.escape against how the file is written)',
    ]);
  });

  it('reports invalid UTF-8 (a stray byte, an overlong form, an encoded surrogate) in the row and field it is in', async () => {
    const csv = bytes('id,kind\n1,', [0xff], '\n2,', [0xc0, 0xaf], '\n3,', [0xed, 0xa0, 0x80], '\n4,ok\n');
    const report = await validate(EVENTS('csv'), [memoryFile('e.csv', csv)]);
    expect(samples(report, 'unreadable')).toEqual(['line 2: invalid UTF-8 in field 2: if the file is written in another encoding, set produces.csv.encoding (e.g. windows-1252, as Excel writes on Windows, or latin1)', 'line 3: invalid UTF-8 in field 2: if the file is written in another encoding, set produces.csv.encoding (e.g. windows-1252, as Excel writes on Windows, or latin1)', 'line 4: invalid UTF-8 in field 2: if the file is written in another encoding, set produces.csv.encoding (e.g. windows-1252, as Excel writes on Windows, or latin1)']);
  });

  it('fails a file whose header is not UTF-8 as unreadable', async () => {
    const report = await validate(EVENTS('csv'), [memoryFile('e.csv', bytes('id,ki', [0xfe], 'nd\n1,a\n'))]);
    expect(samples(report, 'unreadable')).toEqual(['the CSV header (line 1) cannot be read: invalid UTF-8 in field 2: if the file is written in another encoding, set produces.csv.encoding (e.g. windows-1252, as Excel writes on Windows, or latin1)']);
  });
});

describe('hostile JSON Lines are reported as violations', () => {
  it('reports invalid UTF-8, non-objects and broken JSON by line and checks the rest', async () => {
    const jsonl = bytes('{"id":1,"kind":"', [0xff, 0xfe], '"}\n[1,2]\n{"id":3,\n"just a string"\n{"id":5,"kind":"B!"}\n{"id":6,"kind":"ok"}\n');
    const report = await validate(EVENTS('jsonl'), [memoryFile('e.jsonl', jsonl)]);
    expect(counts(report)).toEqual({ unreadable: 4, 'pattern:kind': 1 });
    expect(samples(report, 'unreadable')).toEqual([
      'line 1: line 1 is not valid UTF-8',
      'line 2: line 2 is not a JSON object: found an array',
      expect.stringMatching(/^line 3: invalid JSON: /),
      'line 4: line 4 is not a JSON object: found a string',
    ]);
  });

  it('reports an object giving a key twice as an unreadable row naming the key and where it comes again, read by bytes or by JSON.parse', async () => {
    const lines = ['{"id":1,"kind":"a"}', '{"id":2,"kind":"b"}', '{"id":3,"kind":"c","id":4}', '{"id":5, "x":1, "x":2}', '{"kind":"d","id":6,"kind":"e","n":[1]}', '{"id":7,"kind":"f"}'];
    const report = await validate(EVENTS('jsonl'), [memoryFile('e.jsonl', `${lines.join('\n')}\n`)]);
    expect(counts(report)).toEqual({ unreadable: 3 });
    const reason = (key: string, column: number) => `the key "${key}" appears twice in the object (again at column ${column}); readers disagree on which value counts (DuckDB refuses the file): write each key once`;
    expect(samples(report, 'unreadable')).toEqual([`line 3: ${reason('id', 20)}`, `line 4: ${reason('x', 17)}`, `line 5: ${reason('kind', 20)}`]);
    expect(report.violations[0]?.samples.map((s) => s.file)).toEqual(['e.jsonl', 'e.jsonl', 'e.jsonl']);
  });

  it('reports a value nested a million levels deep as a type violation of its row, without crashing', async () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    const report = await validate(EVENTS('jsonl'), [memoryFile('e.jsonl', `{"id":1,"kind":${deep}}\n{"id":2,"kind":"ok"}\n`)]);
    expect(report.status).toBe('fail');
    expect(report.violations.find((v) => v.rule === 'type')?.samples[0]).toEqual({ file: 'e.jsonl', row: 0, value: '[[[[…]]]]' });
    expect(report.violations.some((v) => v.rule === 'unreadable')).toBe(false);
  });
});

describe('a single 1 GiB line, synthesised chunk by chunk', () => {
  it.each([
    ['a CSV field', 'csv', ['id,kind\n1,a\n2,', { fill: X, length: GIB }, '\n3,B!\n'], 'line 3: record is longer than the 16777216-byte limit (maxRecordBytes)'],
    ['a JSON Lines string', 'jsonl', ['{"id":1,"kind":"a"}\n{"id":2,"kind":"', { fill: X, length: GIB }, '"}\n{"id":3,"kind":"B!"}\n'], 'line 2: line is longer than the 16777216-byte limit (maxLineBytes)'],
  ] as const)('in %s is one unreadable row, read in bounded memory, and the rows after it are checked', async (_what, format, pieces, reason) => {
    const { report, growth } = await validateMeasuringRss(format, pieces);
    expect(samples(report, 'unreadable')).toEqual([reason]);
    expect(counts(report)).toEqual({ unreadable: 1, 'pattern:kind': 1 });
    expect(growth).toBeLessThan(RSS_BUDGET_BYTES);
  });

  it('behind an unterminated quote is one unreadable row, read in bounded memory', async () => {
    const { report, growth } = await validateMeasuringRss('csv', ['id,kind\n1,a\n2,"', { fill: X, length: GIB }, '\n3,b\n']);
    expect(samples(report, 'unreadable')).toEqual(['line 3: unterminated quoted field: the quote opened in field 2 on line 3 is never closed (check produces.csv.quote and produces.csv.escape against how the file is written)']);
    expect(growth).toBeLessThan(RSS_BUDGET_BYTES);
  });
});

/** Validates a synthetic file, sampling RSS at every read, and returns the peak growth over the start. */
async function validateMeasuringRss(format: 'csv' | 'jsonl', pieces: readonly Piece[]) {
  const start = process.memoryUsage().rss;
  let peak = start;
  const source = syntheticSource(pieces, () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  });
  expect(source.byteLength).toBeGreaterThan(GIB);
  const report = await validate(EVENTS(format), [syntheticFile(`big.${format}`, source)]);
  return { report, growth: peak - start };
}
