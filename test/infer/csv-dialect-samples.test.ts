import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CSV_DIALECT } from '../../lib/contract/csv-dialect.js';
import { sniffText } from '../../lib/infer/sniff-dialect.js';
import { openDuckDB, sqlString } from '../writers/duckdb-session.js';
import { DIALECT_TABLE_SQL, pythonCsv, sourceRows } from '../formats/csv-dialect-table.js';
import { checkPartition, inferContract, tempDir, writeSample } from './infer-helpers.js';

/**
 * infer on CSV written in other dialects: the proposal declares `produces.csv` with the keys
 * that differ from the defaults and a comment on why each, and the contract it writes reads
 * the samples as written (it verifies against them, so it finds the planted nulls as nulls).
 */
let session: Awaited<ReturnType<typeof openDuckDB>>;
let root: string;
beforeAll(async () => {
  session = await openDuckDB();
  await session.connection.run(DIALECT_TABLE_SQL);
  root = tempDir();
});
afterAll(() => session.close());

async function duckdbPartition(name: string, options: string): Promise<string> {
  const dir = join(root, name, 'dt=2026-11-28');
  mkdirSync(dir, { recursive: true });
  await session.connection.run(`COPY (FROM t ORDER BY id) TO ${sqlString(join(dir, 'part-0.csv'))} (${options})`);
  return dir;
}

describe('infer proposes the CSV dialect it saw', () => {
  it.each([
    ["DELIM ';', NULLSTR 'NULL'", "FORMAT csv, DELIM ';', NULLSTR 'NULL'", { delimiter: ';', null_values: ['NULL'] }],
    ['DELIM tab', "FORMAT csv, DELIM '\t'", { delimiter: '\t' }],
    ["ESCAPE '\\'", "FORMAT csv, ESCAPE '\\'", { escape: '\\' }],
    ["NULLSTR '\\N', HEADER false", "FORMAT csv, NULLSTR '\\N', HEADER false", { header: false, null_values: ['\\N'] }],
    ['COMPRESSION zstd', 'FORMAT csv, COMPRESSION zstd', undefined],
  ])('from DuckDB COPY with %s', async (what, options, expected) => {
    const name = `d${what.replace(/\W+/g, '_').toLowerCase()}`.replace(/_+$/, '');
    const dir = await duckdbPartition(name, options);
    const { contract, text } = await inferContract([dir], `${name}.v1.yaml`);
    const declared = Object.fromEntries(Object.entries(expected ?? {}).map(([k, v]) => [k === 'null_values' ? 'nullValues' : k, v]));
    expect(contract.produces.csv).toEqual(expected === undefined ? undefined : { ...DEFAULT_CSV_DIALECT, ...declared });
    if (expected) expect(text).toMatch(/# csv (delimiter|null_values|escape|header): /);
    // The planted nulls read as nulls: name is not proposed required.
    const names = contract.schema.columns.find((c) => c.name === (expected && 'header' in expected ? 'column_2' : 'name'));
    expect(names?.required).toBe(false);
    expect((await checkPartition(contract, dir)).status).toBe('pass');
  });

  it("from Python's QUOTE_ALL: null_values '' and '\"\"', so the planted null names are nulls", async () => {
    const dir = join(root, 'py_all', 'dt=2026-11-28');
    writeSample(dir, 'part-0.csv', Buffer.from(pythonCsv(await sourceRows(session.connection), 'quoting=csv.QUOTE_ALL')).toString('utf8'));
    const { contract, text } = await inferContract([dir], 'py_all.v1.yaml');
    expect(contract.produces.csv?.nullValues).toEqual(['', '""']);
    expect(text).toContain("# csv null_values: fields are never empty unquoted but \"\" is written");
    expect(contract.schema.columns.find((c) => c.name === 'name')?.required).toBe(false);
  });
});

describe('sniffText', () => {
  it('keeps the defaults for RFC 4180 text as DuckDB writes it by default', () => {
    const text = 'id,name\n1,"a,b"\n2,\n3,""\n';
    expect(sniffText(Buffer.from(text))).toEqual({ dialect: DEFAULT_CSV_DIALECT, notes: [] });
  });

  it('reads Windows-1252 text as such, and a UTF-16 byte order mark', () => {
    expect(sniffText(Buffer.from('id,name\n1,caf\xe9\n', 'latin1')).dialect.encoding).toBe('windows-1252');
    expect(sniffText(Buffer.from('\ufeffid,name\n1,a\n', 'utf16le')).dialect.encoding).toBe('utf-16');
  });

  it("sees Python's escapechar in unquoted fields", () => {
    expect(sniffText(Buffer.from('id,s\n1,a\\,b\n2,c\n')).dialect).toMatchObject({ escape: '\\', escapeUnquoted: true });
  });
});
