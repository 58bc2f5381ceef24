import pl from 'nodejs-polars';
import { describe, expect, it } from 'vitest';
import { memoryFile, validate } from '../fixtures/partition.js';
import { expectParsedLikeText, parsedRead } from './csv-parsed-reference.js';
import { expectKnobValues, KNOB_COLUMNS, KNOB_ROWS, KNOB_TYPES, knobContract } from './text-knobs-table.js';

/**
 * The knob table written by polars' own CSV writer (nodejs-polars `writeCSV`) with its knobs,
 * read back by the parsed road at chunk sizes down to one byte: each read agrees with the text
 * road, and where the knob keeps values, holds the table.
 */
const TINY_SIZES = [{}, { chunkBytes: 1, batchRows: 7 }, { chunkBytes: 13, batchRows: 64 }];
const STAMP = '%Y-%m-%dT%H:%M:%S%.f';

/** The table as polars types it: text parsed by polars itself, so the writer sees real types. */
function frame(): pl.DataFrame {
  const text = pl.DataFrame(Object.fromEntries(KNOB_COLUMNS.map((c) => [c.name, pl.Series(c.name, [...c.values], pl.Utf8)])));
  const stamp = (name: string) => pl.col(name).str.strptime(pl.Datetime('ms'), STAMP).cast(pl.Datetime('us'));
  return text.select(
    pl.col('id').cast(pl.Int64),
    pl.col('key'),
    pl.col('small').cast(pl.Int32),
    pl.col('ratio').cast(pl.Float64),
    pl.col('amount').cast(pl.Decimal(12, 2)),
    pl.col('paid').eq(pl.lit('true')).alias('paid'),
    pl.col('day').str.strptime(pl.Date, '%Y-%m-%d'),
    stamp('placed_at').dt.replaceTimeZone('UTC').alias('placed_at'),
    stamp('local_time').alias('local_time'),
    pl.col('note'),
  );
}

const TABLE = frame();
const writes = (options: Parameters<pl.DataFrame['writeCSV']>[0]) => new Uint8Array(TABLE.writeCSV(options));

describe.each([
  ['the defaults', {}, true],
  ['a byte order mark', { includeBom: true }, true],
  ['CRLF line endings', { lineTerminator: '\r\n' }, true],
  ['CRLF and a byte order mark', { lineTerminator: '\r\n', includeBom: true }, true],
  ['an ISO datetime format with Z', { datetimeFormat: '%Y-%m-%dT%H:%M:%S%.6fZ' }, false],
  ["nullValue 'NULL'", { nullValue: 'NULL' }, false],
  ["quoteChar \"'\"", { quoteChar: "'" }, false],
] as const)('polars writeCSV with %s', (_what, options, keepsValues) => {
  it('reads parsed exactly as read as text, at any chunk size', async () => {
    await expectParsedLikeText(writes(options), KNOB_TYPES, ['key'], TINY_SIZES);
  });

  if (keepsValues) it('reads back every value polars was given', async () => {
    expectKnobValues(await parsedRead(writes(options), KNOB_TYPES, [], { chunkBytes: 5 }));
  });

  if (keepsValues) it('passes the contract of the table', async () => {
    const report = await validate(knobContract(), [memoryFile('polars.csv', writes(options))]);
    expect(report.violations).toEqual([]);
    expect(report.rows).toBe(KNOB_ROWS);
  });
});

describe('what polars writes with knobs the contract refuses', () => {
  it('reads an ISO datetime format with Z as instants, and refuses it for wall-clock time', async () => {
    const report = await validate(knobContract(), [memoryFile('z.csv', writes({ datetimeFormat: '%Y-%m-%dT%H:%M:%S%.6fZ' }))]);
    const present = KNOB_COLUMNS.find((c) => c.name === 'local_time')!.values.filter((v) => v !== null).length;
    expect(report.violations.map((v) => [v.rule, v.column, v.count])).toEqual([['type', 'local_time', present]]);
  });

  it("refuses separator ';' as unreadable, saying to write commas", async () => {
    const report = await validate(knobContract(), [memoryFile('semi.csv', writes({ separator: ';' }))]);
    expect(report.violations.map((v) => v.rule)).toEqual(['unreadable']);
    expect(report.violations[0]!.samples[0]!.value).toMatch(/it looks semicolon-separated/);
  });
});
