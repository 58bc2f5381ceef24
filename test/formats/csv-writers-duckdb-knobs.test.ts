import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { counts, memoryFile, validate } from '../fixtures/partition.js';
import { openDuckDB, sqlIdent, sqlString } from '../writers/duckdb-session.js';
import { expectParsedLikeText, parsedRead } from './csv-parsed-reference.js';
import { expectKnobValues, KNOB_COLUMNS, KNOB_ROWS, KNOB_TYPES, knobContract } from './text-knobs-table.js';

/**
 * The knob table written by DuckDB's COPY ... (FORMAT csv) with the options producers set, read
 * back by the parsed road at chunk sizes down to one byte (every field straddles a boundary):
 * each read agrees with the text road, and where the knob keeps values, holds the table.
 */
const SQL_TYPES: Record<string, string> = {
  int64: 'BIGINT', int32: 'INTEGER', float64: 'DOUBLE', 'decimal(12,2)': 'DECIMAL(12,2)', boolean: 'BOOLEAN',
  date: 'DATE', timestamp: 'TIMESTAMPTZ', timestamp_ntz: 'TIMESTAMP', string: 'VARCHAR',
};

const TINY_SIZES = [{}, { chunkBytes: 1, batchRows: 7 }, { chunkBytes: 13, batchRows: 64 }];

const TABLE_SQL = `CREATE TABLE t AS SELECT * FROM (VALUES ${Array.from({ length: KNOB_ROWS }, (_, row) =>
  `(${KNOB_COLUMNS.map((c) => `CAST(${c.values[row] === null ? 'NULL' : sqlString(c.values[row]!)} AS ${SQL_TYPES[c.type]})`).join(', ')})`).join(',\n')}) v(${KNOB_COLUMNS.map((c) => sqlIdent(c.name)).join(', ')})`;

let dir: string;
let session: Awaited<ReturnType<typeof openDuckDB>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-duckdb-knobs-'));
  session = await openDuckDB();
  await session.connection.run(TABLE_SQL);
});
afterAll(() => {
  session.close();
  rmSync(dir, { recursive: true, force: true });
});

async function duckdbWrites(name: string, options: string, setup: readonly string[] = []): Promise<Uint8Array> {
  const path = join(dir, name);
  for (const statement of setup) await session.connection.run(statement);
  try {
    await session.connection.run(`COPY t TO ${sqlString(path)} (${options})`);
  } finally {
    await session.connection.run(`SET TimeZone = 'UTC'`);
  }
  return new Uint8Array(readFileSync(path));
}

describe.each([
  ['the defaults', 'out.csv', 'FORMAT csv', [], true],
  ['FORCE_QUOTE * (every field quoted)', 'quoted.csv', 'FORMAT csv, FORCE_QUOTE *', [], true],
  ['COMPRESSION gzip', 'out.csv.gz', 'FORMAT csv, COMPRESSION gzip', [], true],
  ["a session at +05:30 (offsets in every timestamp)", 'kolkata.csv', 'FORMAT csv', ["SET TimeZone = 'Asia/Kolkata'"], true],
  ["a session west of UTC", 'ny.csv', 'FORMAT csv', ["SET TimeZone = 'America/New_York'"], true],
  ["NULLSTR 'NULL' (nulls as text)", 'nullstr.csv', "FORMAT csv, NULLSTR 'NULL'", [], false],
  ["QUOTE '''' (quotes a CSV here does not take)", 'single.csv', "FORMAT csv, QUOTE ''''", [], false],
  ["ESCAPE '\\' (backslash-escaped quotes)", 'escaped.csv', "FORMAT csv, ESCAPE '\\'", [], false],
  ["TIMESTAMPFORMAT '%d/%m/%Y %H:%M:%S'", 'stampformat.csv', "FORMAT csv, TIMESTAMPFORMAT '%d/%m/%Y %H:%M:%S', DATEFORMAT '%d.%m.%Y'", [], false],
] as const)('DuckDB COPY with %s', (_what, name, options, setup, keepsValues) => {
  it('reads parsed exactly as read as text, at any chunk size', async () => {
    await expectParsedLikeText(await duckdbWrites(name, options, setup), KNOB_TYPES, ['key'], TINY_SIZES);
  });

  if (keepsValues) it('reads back every value DuckDB was given', async () => {
    expectKnobValues(await parsedRead(await duckdbWrites(name, options, setup), KNOB_TYPES, [], { chunkBytes: 3 }));
  });

  if (keepsValues) it('passes the contract of the table', async () => {
    const report = await validate(knobContract(), [memoryFile(name, await duckdbWrites(name, options, setup))]);
    expect(report.violations).toEqual([]);
    expect(report.rows).toBe(KNOB_ROWS);
  });
});

describe('what DuckDB writes with knobs the contract refuses', () => {
  it("reports NULLSTR 'NULL' as type violations in every typed column that holds a null, and the text NULL in strings", async () => {
    const bytes = await duckdbWrites('nullstr.csv', "FORMAT csv, NULLSTR 'NULL'");
    const report = await validate(knobContract(), [memoryFile('nullstr.csv', bytes)]);
    const nulls = (column: string) => KNOB_COLUMNS.find((c) => c.name === column)!.values.filter((v) => v === null).length;
    const typed = KNOB_COLUMNS.filter((c) => c.type !== 'string' && nulls(c.name) > 0).map((c) => [`type:${c.name}`, nulls(c.name)]);
    expect(counts(report)).toEqual(Object.fromEntries(typed));
    expect(report.violations.find((v) => v.column === 'small')!.samples[0]!.value).toBe('NULL');
  });

  it('reports a custom TIMESTAMPFORMAT as a type violation of each timestamp, with its text', async () => {
    const bytes = await duckdbWrites('stampformat.csv', "FORMAT csv, TIMESTAMPFORMAT '%d/%m/%Y %H:%M:%S'");
    expect(new TextDecoder().decode(bytes.length > 2 && bytes[0] === 0x1f ? gunzipSync(bytes) : bytes)).toMatch(/\d\d\/\d\d\/\d{4} /);
    const report = await validate(knobContract(), [memoryFile('stampformat.csv', bytes)]);
    const present = (column: string) => KNOB_COLUMNS.find((c) => c.name === column)!.values.filter((v) => v !== null).length;
    expect(counts(report)).toEqual({ 'type:placed_at': present('placed_at'), 'type:local_time': present('local_time') });
  });
});
