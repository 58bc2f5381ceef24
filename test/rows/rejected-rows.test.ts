import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { rejectedRowsFile, type RejectedSource } from '../../lib/rows/rejected-rows-file.js';
import type { RowReason, WithheldFile } from '../../lib/rows/withheld-rows.js';
import { queryRows, sqlString } from '../writers/index.js';
import { EXACT_COLUMNS, EXACT_WRITERS } from './exact-table.js';
import { collect } from './rewrite-helpers.js';
import { bytesOf, CSV_MIXED, JSONL_MIXED, parts, source } from './text-cases.js';
import { useDuckDBScratch } from '../writers/duckdb-scratch.js';

const required = (column: string): RowReason => ({ rule: 'required', column, message: `${column} is required` });
const unreadable: RowReason = { rule: 'unreadable', message: 'expected 2 fields as in the header, found 3' };

function withheld(path: string, rows: number[], reasons: RowReason[][]): WithheldFile {
  return { path, rows, reasons };
}

async function rejectedText(format: 'csv' | 'jsonl', files: { file: WithheldFile; bytes: Uint8Array }[]) {
  const result = await rejectedRowsFile(format, files.map(({ file, bytes }) => ({ file, source: source(bytes) })));
  return { text: Buffer.from((await collect(result.chunks)).bytes).toString('utf8'), notes: result.notes };
}

describe('rejected-rows.csv', () => {
  it('holds the meta fields quoted, then each record as the producer wrote it, quoted newlines and all', async () => {
    const { text, notes } = await rejectedText('csv', [
      { file: withheld('in/a.csv', [1, 3, 5], [[required('text')], [unreadable], [required('text'), { rule: 'pattern', column: 'id', message: 'id does not match "x"' }]]), bytes: bytesOf(CSV_MIXED) },
      { file: withheld('in/b.csv', [], []), bytes: bytesOf(CSV_MIXED) },
    ]);
    expect(notes).toEqual([]);
    expect(text).toBe([
      '_file,_row,_rule,_column,_message,id,text\n',
      '"in/a.csv","1","required","text","text is required",2,"multi\r\nline, with comma"\n',
      '"in/a.csv","3","unreadable","","expected 2 fields as in the header, found 3",4,ragged,extra field\n',
      '"in/a.csv","5","required; pattern","text; id","text is required; id does not match ""x""",6,last\n',
    ].join(''));
  });

  it('quotes each record whole as _record when the files have different headers', async () => {
    const other = parts(['code,"text"\n', 'not a row'], '9,"say ""hi"""\n');
    const { text, notes } = await rejectedText('csv', [
      { file: withheld('a.csv', [0], [[required('text')]]), bytes: bytesOf(CSV_MIXED) },
      { file: withheld('b.csv', [0], [[required('text')]]), bytes: bytesOf(other) },
    ]);
    expect(notes).toHaveLength(1);
    expect(text).toBe([
      '_file,_row,_rule,_column,_message,_record\n',
      '"a.csv","0","required","text","text is required","1,plain"\n',
      '"b.csv","0","required","text","text is required","9,""say """"hi"""""""\n',
    ].join(''));
  });
});

describe('rejected-rows.jsonl', () => {
  it('holds each line verbatim when it is an object, else as a JSON string', async () => {
    const bad = Buffer.concat([Buffer.from('{"id":1}\n'), Buffer.of(0xff, 0x41, 0x0a)]);
    const { text } = await rejectedText('jsonl', [
      { file: withheld('a.jsonl', [1, 2, 3, 4], [[required('s')], [unreadable], [unreadable], [required('s'), required('t')]]), bytes: bytesOf(JSONL_MIXED) },
      { file: withheld('b.jsonl', [1], [[unreadable]]), bytes: bad },
    ]);
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1)).toEqual([
      '{"_file":"a.jsonl","_row":1,"_rule":"required","_column":"s","_message":"s is required","_record":{"id":2,"s":"a\\nb","n":NaN}}',
      '{"_file":"a.jsonl","_row":2,"_rule":"unreadable","_column":null,"_message":"expected 2 fields as in the header, found 3","_record":"not json at all"}',
      '{"_file":"a.jsonl","_row":3,"_rule":"unreadable","_column":null,"_message":"expected 2 fields as in the header, found 3","_record":"[1,2,3]"}',
      '{"_file":"a.jsonl","_row":4,"_rule":"required; required","_column":"s; t","_message":"s is required; t is required","_record":{"id":5, "big": 12345678901234567890}}',
      '{"_file":"b.jsonl","_row":1,"_rule":"unreadable","_column":null,"_message":"expected 2 fields as in the header, found 3","_record":"\uFFFDA","_record_base64":"/0E="}',
    ]);
  });
});

describe('rejected-rows.parquet', () => {
  const session = useDuckDBScratch('rows-rejected-');

  async function writeRejected(files: readonly RejectedSource[], name: string) {
    const result = await rejectedRowsFile('parquet', files);
    const out = session.path(name);
    await writeFile(out, (await collect(result.chunks)).bytes);
    return { out, notes: result.notes };
  }

  it('holds the meta columns, then the source columns with their types and values, when the files share a schema', async () => {
    const paths = [session.path('a.parquet'), session.path('b.parquet')];
    for (const path of paths) await EXACT_WRITERS[0]!.write(session.connection, path, `${path}.staging`);
    const rows = [[0, 2047, 2048, 4999], [3]];
    const files = await Promise.all(paths.map(async (path, f) => ({
      file: withheld(path, rows[f]!, rows[f]!.map((r) => (r === 2048 ? [required('s'), unreadable] : [required('s')]))),
      source: byteSourceFromBytes(await readFile(path)),
    })));
    const { out, notes } = await writeRejected(files, 'rejected.parquet');
    expect(notes).toEqual([]);
    const describeOf = async (sql: string) => (await queryRows(session.connection, `DESCRIBE ${sql}`)).map((r) => `${String(r.column_name)} ${String(r.column_type)}`);
    const reference = `SELECT * FROM read_parquet(${sqlString(paths[0]!)})`;
    expect(await describeOf(`SELECT * FROM read_parquet(${sqlString(out)})`)).toEqual([
      '_file VARCHAR', '_row BIGINT', '_rule VARCHAR', '_column VARCHAR', '_message VARCHAR', ...(await describeOf(reference)),
    ]);
    const meta = await queryRows(session.connection, `SELECT _file, _row, _rule, _column, _message FROM read_parquet(${sqlString(out)})`);
    expect(meta).toEqual([
      ...rows[0]!.map((r) => ({ _file: paths[0], _row: r, _rule: r === 2048 ? 'required; unreadable' : 'required', _column: r === 2048 ? 's; ' : 's', _message: r === 2048 ? 's is required; expected 2 fields as in the header, found 3' : 's is required' })),
      { _file: paths[1], _row: 3, _rule: 'required', _column: 's', _message: 's is required' },
    ]);
    const asText = (sql: string) => `SELECT COLUMNS(*)::VARCHAR FROM (${sql})`;
    const picked = `(SELECT * EXCLUDE (file_row_number) FROM read_parquet(${sqlString(paths[0]!)}, file_row_number = true) WHERE file_row_number IN (0, 2047, 2048, 4999) ORDER BY file_row_number) UNION ALL (SELECT * EXCLUDE (file_row_number) FROM read_parquet(${sqlString(paths[1]!)}, file_row_number = true) WHERE file_row_number = 3)`;
    const stored = `SELECT * EXCLUDE (_file, _row, _rule, _column, _message) FROM read_parquet(${sqlString(out)})`;
    const differing = await queryRows(session.connection, `SELECT count(*) AS n FROM ((${asText(picked)} EXCEPT ALL ${asText(stored)}) UNION ALL (${asText(stored)} EXCEPT ALL ${asText(picked)}))`);
    expect(differing[0]!.n).toBe(0);
  });

  it('holds each row as JSON text in _record, every digit kept, when the schemas differ', async () => {
    const a = session.path('exact.parquet');
    await EXACT_WRITERS[0]!.write(session.connection, a, `${a}.staging`);
    const b = session.path('other.parquet');
    await session.connection.run(`COPY (SELECT 1 AS x) TO ${sqlString(b)} (FORMAT parquet)`);
    const files = [
      { file: withheld(a, [1], [[required('s')]]), source: byteSourceFromBytes(await readFile(a)) },
      { file: withheld(b, [0], [[required('x')]]), source: byteSourceFromBytes(await readFile(b)) },
    ];
    const { out, notes } = await writeRejected(files, 'mixed.parquet');
    expect(notes).toHaveLength(1);
    const rows = await queryRows(session.connection, `SELECT _row, _record FROM read_parquet(${sqlString(out)})`);
    const record = JSON.parse(String(rows[0]!._record)) as Record<string, unknown>;
    const expected = await queryRows(session.connection, `SELECT i64::VARCHAR AS i64, dec::VARCHAR AS dec, ts, f32::VARCHAR AS f32, b FROM (SELECT ${EXACT_COLUMNS.i64} AS i64, ${EXACT_COLUMNS.dec} AS dec, strftime(${EXACT_COLUMNS.ts}, '%Y-%m-%dT%H:%M:%S.%f') AS ts, ${EXACT_COLUMNS.f32} AS f32, ${EXACT_COLUMNS.b} AS b FROM range(1, 2) t(i))`);
    expect(String(rows[0]!._record)).toContain(`"i64":${String(expected[0]!.i64)},`);
    expect(record.dec).toBe(expected[0]!.dec);
    expect(record.ts).toBe(expected[0]!.ts);
    expect(record.f32).toBe(-0);
    expect(record.b).toEqual({ base64: '' });
    expect(record.s).toBe(null);
    expect(JSON.parse(String(rows[1]!._record))).toEqual({ x: 1 });
  });
});
