import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counts, memoryFile, validate } from '../fixtures/partition.js';
import { sqlString, withDuckDB } from '../writers/duckdb-session.js';
import { expectedColumns, readBack, WRITER_COLUMNS, WRITER_ROWS, writerContract } from './text-writer-table.js';

/**
 * CSV and JSON Lines exactly as DuckDB's COPY writes them, made at test time: its defaults,
 * the options producers use, other session time zones, gzip. Each is read back value by value
 * against the table it was given, and validated against a contract of every type.
 */
const SQL_TYPES: Readonly<Record<string, string>> = {
  int64: 'BIGINT', int32: 'INTEGER', float64: 'DOUBLE', float32: 'FLOAT', 'decimal(12,2)': 'DECIMAL(12,2)',
  boolean: 'BOOLEAN', date: 'DATE', timestamp: 'TIMESTAMPTZ', timestamp_ntz: 'TIMESTAMP', string: 'VARCHAR',
};

function literal(type: string, value: string | number | boolean | null): string {
  const sqlType = SQL_TYPES[type]!;
  if (value === null) return `NULL::${sqlType}`;
  if (type === 'timestamp') return `TIMESTAMPTZ ${sqlString(`${value}+00`)}`;
  return `CAST(${sqlString(String(value))} AS ${sqlType})`;
}

const TABLE_SQL = `CREATE TABLE t AS SELECT * FROM (VALUES ${Array.from({ length: WRITER_ROWS }, (_, row) =>
  `(${WRITER_COLUMNS.map((c) => literal(c.type, c.values[row]!)).join(', ')})`).join(', ')}) v(${WRITER_COLUMNS.map((c) => c.name).join(', ')})`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cg-duckdb-text-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bytes of `COPY t TO <file> (<options>)`, after `setup` statements in the same session. */
async function duckdbWrites(name: string, options: string, setup: readonly string[] = [], query = 't'): Promise<Uint8Array> {
  const path = join(dir, name);
  await withDuckDB(async (connection: DuckDBConnection) => {
    await connection.run(TABLE_SQL);
    for (const statement of setup) await connection.run(statement);
    await connection.run(`COPY ${query} TO ${sqlString(path)} (${options})`);
  });
  return new Uint8Array(readFileSync(path));
}

describe.each([
  ['CSV with the defaults', 'out.csv', 'FORMAT csv', []],
  ['CSV with HEADER true and every field quoted', 'quoted.csv', 'FORMAT csv, HEADER true, FORCE_QUOTE *', []],
  ['CSV in a session west of UTC', 'ny.csv', 'FORMAT csv', ["SET TimeZone = 'America/New_York'"]],
  ['CSV in a session at +05:30', 'kolkata.csv', 'FORMAT csv', ["SET TimeZone = 'Asia/Kolkata'"]],
  ['gzip-compressed CSV', 'out.csv.gz', 'FORMAT csv, COMPRESSION gzip', []],
  ['zstd-compressed CSV', 'out.csv.zst', 'FORMAT csv, COMPRESSION zstd', []],
  ['JSON Lines with the defaults', 'out.jsonl', 'FORMAT json', []],
  ['JSON Lines in a session at +05:30', 'kolkata.jsonl', 'FORMAT json', ["SET TimeZone = 'Asia/Kolkata'"]],
  ['gzip-compressed JSON Lines', 'out.jsonl.gz', 'FORMAT json, COMPRESSION gzip', []],
  ['zstd-compressed JSON Lines', 'out.jsonl.zst', 'FORMAT json, COMPRESSION zstd', []],
] as const)('DuckDB %s', (_what, name, options, setup) => {
  const format = options.includes('json') ? 'jsonl' : 'csv';

  it('reads back every value DuckDB was given', async () => {
    expect(await readBack(await duckdbWrites(name, options, setup), format)).toEqual(expectedColumns());
  });

  it('passes a contract with a column of every type', async () => {
    const report = await validate(writerContract(format), [memoryFile(name, await duckdbWrites(name, options, setup))]);
    expect(report.violations).toEqual([]);
    expect(report.rows).toBe(WRITER_ROWS);
  });
});

describe('what DuckDB writes that a contract refuses', () => {
  it('refuses a TIMESTAMP (wall-clock) column for a timestamp, naming the TIMESTAMPTZ fix', async () => {
    const bytes = await duckdbWrites('ntz.csv', 'FORMAT csv', [], '(SELECT * REPLACE (CAST(placed_at AS TIMESTAMP) AS placed_at) FROM t)');
    expect(new TextDecoder().decode(bytes)).toContain('2026-11-29 00:00:00.123456,');
    const report = await validate(writerContract('csv'), [memoryFile('ntz.csv', bytes)]);
    expect(counts(report)).toEqual({ 'type:placed_at': WRITER_ROWS });
    expect(report.violations[0]!.message).toMatch(/^5 rows of placed_at are not a timestamp with an offset .*\nfix: .*DuckDB: a TIMESTAMPTZ column.*declare the column timestamp_ntz/);
    expect(report.violations[0]!.samples[0]).toEqual({ file: 'ntz.csv', row: 0, value: '2026-11-29 00:00:00.123456' });
  });

  it('refuses a TIMESTAMPTZ column for a timestamp_ntz in JSON Lines too', async () => {
    const bytes = await duckdbWrites('tz.jsonl', 'FORMAT json', [], "(SELECT * REPLACE (CAST(local_time AS VARCHAR) || '+00' AS local_time) FROM t)");
    expect(counts(await validate(writerContract('jsonl'), [memoryFile('tz.jsonl', bytes)]))).toEqual({ 'type:local_time': 4 });
  });

  it('reads NULLSTR NULL as the text NULL: a type violation for other types, a value for strings', async () => {
    const bytes = await duckdbWrites('nullstr.csv', "FORMAT csv, NULLSTR 'NULL'");
    const report = await validate(writerContract('csv'), [memoryFile('nullstr.csv', bytes)]);
    expect(counts(report)).toEqual({ 'type:small': 1, 'type:score': 1, 'type:amount': 1, 'type:paid': 1, 'type:day': 1, 'type:local_time': 1 });
  });

  it("refuses a file written with DELIMITER ';' as unreadable, naming the key to set", async () => {
    const report = await validate(writerContract('csv'), [memoryFile('semi.csv', await duckdbWrites('semi.csv', "FORMAT csv, DELIMITER ';'"))]);
    expect(counts(report)).toEqual({ unreadable: 1 });
    expect(report.violations[0]!.samples[0]!.value).toMatch(/^the CSV header "id;small;ratio;.*" is one column; it looks semicolon-separated, and the contract reads it comma-separated: set produces\.csv\.delimiter: ';' .*DuckDB: DELIMITER ','; pandas: sep=','\)$/);
  });

  it("reports a row whose quotes are escaped with ESCAPE '\\' as unreadable, naming the doubled-quote form", async () => {
    const report = await validate(writerContract('csv'), [memoryFile('escaped.csv', await duckdbWrites('escaped.csv', "FORMAT csv, ESCAPE '\\'"))]);
    expect(counts(report)).toEqual({ unreadable: 2 });
    expect(report.violations[0]!.samples.map((s) => s.value)).toEqual([
      'line 5: unexpected character after the closing quote of field 10 (a quote escaped as \\"? set produces.csv.escape: \'\\\' as the file is written, e.g. by DuckDB\'s ESCAPE \'\\\')',
      // Once the quote is taken as closing, the newline inside the field ends the record: its rest is a row of its own.
      'line 6: expected 10 fields as in the header, found 1 (check produces.csv.delimiter, quote and escape against how the file is written)',
    ]);
  });

  it('refuses a tab-separated file the same way', async () => {
    const report = await validate(writerContract('csv'), [memoryFile('t.tsv', await duckdbWrites('t.tsv', "FORMAT csv, DELIMITER '\t'"))]);
    expect(report.violations[0]!.samples[0]!.value).toMatch(/it looks tab-separated/);
  });

  it('refuses a file written with HEADER false, naming produces.csv.header: false, and reads it so declared', async () => {
    const bytes = await duckdbWrites('bare.csv', 'FORMAT csv, HEADER false');
    const refused = await validate(writerContract('csv'), [memoryFile('bare.csv', bytes)]);
    expect(counts(refused)).toEqual({ unreadable: 1 });
    expect(refused.violations[0]!.samples[0]!.value).toMatch(/names none of the contract's columns; it looks like a row of data: .*set produces\.csv\.header: false/);
    const declared = await validate(writerContract('csv', '{ header: false }'), [memoryFile('bare.csv', bytes)]);
    expect(declared.violations).toEqual([]);
    expect(declared.rows).toBe(WRITER_ROWS);
  });
});
