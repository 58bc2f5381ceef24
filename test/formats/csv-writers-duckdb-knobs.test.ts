import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { counts, memoryFile, validate } from '../fixtures/partition.js';
import { expectParsedLikeText, parsedRead } from './csv-parsed-reference.js';
import { expectKnobValues, KNOB_COLUMNS, KNOB_ROWS, KNOB_TYPES, knobContract } from './text-knobs-table.js';
import { openDuckdbKnobWriter, type DuckdbKnobWriter } from './duckdb-knob-writer.js';

/**
 * The knob table written by DuckDB's COPY ... (FORMAT csv) with the options producers set, read
 * back by the parsed road at chunk sizes down to one byte (every field straddles a boundary):
 * each read agrees with the text road, and where the knob keeps values, holds the table.
 */
const TINY_SIZES = [{}, { chunkBytes: 1, batchRows: 7 }, { chunkBytes: 13, batchRows: 64 }];

let knobs: DuckdbKnobWriter;
beforeAll(async () => {
  knobs = await openDuckdbKnobWriter('cg-duckdb-knobs-');
});
afterAll(() => knobs.close());
const duckdbWrites = (name: string, options: string, setup: readonly string[] = []) => knobs.writes(name, options, setup);

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
