import { describe, expect, it } from 'vitest';
import { coerceFor, describeExpected, INVALID } from '../../lib/checks/coerce-value.js';
import { parseColumnType } from '../../lib/contract/column-type.js';

/**
 * Every form the README's type table lists, one row each: what a CSV field (text) or a JSON
 * value (dynamic) reads as under a contract type. `INVALID` is a `type` violation.
 */
const ms = (iso: string) => Date.parse(iso);
const type = (text: string) => {
  const parsed = parseColumnType(text);
  if (!parsed) throw new Error(`not a column type: ${text}`);
  return parsed;
};
const text = (typeText: string, raw: string | null) => coerceFor('text', type(typeText))(raw);
const json = (typeText: string, raw: unknown) => coerceFor('dynamic', type(typeText))(raw);

describe('timestamp values (UTC instants) need an explicit offset', () => {
  it.each([
    ['2026-11-29 00:00:00+00', '2026-11-29T00:00:00Z', 'DuckDB and PostgreSQL, whole-hour offset'],
    ['2026-11-28 19:00:00-05', '2026-11-29T00:00:00Z', 'DuckDB in a session zone west of UTC'],
    ['2026-11-29 00:00:00+0000', '2026-11-29T00:00:00Z', 'four-digit offset'],
    ['2026-11-29 00:00:00+00:00', '2026-11-29T00:00:00Z', 'pandas to_csv of a tz-aware column'],
    ['2026-11-29T00:00:00.123456Z', '2026-11-29T00:00:00.123456Z', 'ISO 8601 with Z'],
    ['2026-11-29 00:00:00.123456+05:30', '2026-11-28T18:30:00.123456Z', 'fractional hour offset'],
    ['2026-11-29 00:00:00.123456789+00', '2026-11-29T00:00:00.123456789Z', 'nanoseconds (DuckDB TIMESTAMP_NS)'],
    ['1850-01-01 05:53:28+05:53:28', '1850-01-01T00:00:00Z', "PostgreSQL's local mean time offset with seconds"],
    ['2026-11-29T00:00:00.000Z', '2026-11-29T00:00:00Z', "pandas to_json(date_format='iso') of a tz-aware column"],
    ['2026-11-29 10:00+01:00', '2026-11-29T09:00:00Z', 'no seconds'],
    ['0044-03-15 12:00:00Z', '0044-03-15T12:00:00Z', 'a year below 100, not read as 1944'],
    ['2024-02-29 00:00:00Z', '2024-02-29T00:00:00Z', 'a leap day'],
  ])('reads %s (%s)', (raw, iso) => {
    expect(text('timestamp', raw)).toBeCloseTo(ms(iso.replace(/(\.\d{3})\d+/, '$1')) + fractionBelowMs(iso), 2);
    expect(json('timestamp', raw)).toEqual(text('timestamp', raw));
  });

  it.each([
    ['2026-11-29 00:00:00', 'wall-clock time: no offset'],
    ['2026-11-29T10:00:00.500', "pandas to_json(date_format='iso') of a naive column"],
    ['2026-11-29', 'a date alone'],
    ['infinity', "PostgreSQL's and DuckDB's infinity"],
    ['0044-03-15 00:00:00+00 BC', 'a BC timestamp'],
    ['2026-11-29 00:00:00 +00:00', 'a space before the offset'],
    ['2026-11-29 00:00:00+19', 'an offset no zone has'],
    ['2026-11-29 00:00:00+05:60', 'an offset with 60 minutes'],
    ['29/11/2026 00:00:00 UTC', "PostgreSQL's DateStyle SQL"],
    ['2026-11-29 24:00:00+00', 'hour 24'],
    ['2026-02-29 00:00:00+00', 'a leap day in a common year'],
    ['2100-02-29 00:00:00+00', 'a leap day in a century year'],
  ])('refuses %s (%s)', (raw) => {
    expect(text('timestamp', raw)).toBe(INVALID);
  });

  it('refuses epoch numbers in JSON, as pandas to_json writes by default: they say neither unit nor zone', () => {
    expect(json('timestamp', 1795910400123)).toBe(INVALID);
  });

  it('says in its message what to write and which knob changes it', () => {
    expect(describeExpected(type('timestamp'))).toBe(
      'a timestamp with an offset such as Z or +00:00 (e.g. 2026-11-30 06:00:00+00)\n'
      + "fix: a value without an offset is wall-clock time: write the offset (DuckDB: a TIMESTAMPTZ column; pandas: .dt.tz_localize('UTC'), and to_json(date_format='iso') rather than epoch numbers), or declare the column timestamp_ntz if wall-clock time is what it holds",
    );
  });
});

describe('timestamp_ntz values (wall-clock time) must not have an offset', () => {
  it.each([
    ['2026-11-29 10:00:00', '2026-11-29T10:00:00Z', 'DuckDB TIMESTAMP, PostgreSQL timestamp'],
    ['2026-11-29 10:00:00.000000', '2026-11-29T10:00:00Z', 'pandas to_csv of a naive column'],
    ['2026-11-29T10:00:00.500', '2026-11-29T10:00:00.500Z', "pandas to_json(date_format='iso')"],
    ['2026-11-29', '2026-11-29T00:00:00Z', 'pandas to_csv of a naive column that is all midnights'],
  ])('reads %s (%s)', (raw, iso) => {
    expect(text('timestamp_ntz', raw)).toBe(ms(iso));
  });

  it.each(['2026-11-29 10:00:00+00', '2026-11-29T10:00:00Z', 'infinity', '-infinity'])('refuses %s', (raw) => {
    expect(text('timestamp_ntz', raw)).toBe(INVALID);
  });

  it('names the fix for an instant in a wall-clock column', () => {
    expect(describeExpected(type('timestamp_ntz'))).toMatch(/^a timestamp without an offset .*\nfix: a value with an offset is an instant: .*tz_localize\(None\).*declare the column timestamp if instants/);
  });
});

describe('date values', () => {
  it.each([
    ['2026-11-29', 'DuckDB, PostgreSQL, pandas to_csv'],
    ['2026-11-29T00:00:00.000', "pandas to_json(date_format='iso') of a date"],
    ['2026-11-29 00:00:00', 'midnight without an offset'],
  ])('reads %s (%s)', (raw) => {
    expect(text('date', raw)).toBe(ms('2026-11-29T00:00:00Z'));
  });

  it.each(['2026-11-29T00:00:00.001', '2026-11-29T00:00:00Z', '2026-02-30', '0044-03-15 BC', 'infinity', '29/11/2026'])('refuses %s', (raw) => {
    expect(text('date', raw)).toBe(INVALID);
  });

  it('refuses epoch milliseconds in JSON', () => {
    expect(json('date', 1795910400000)).toBe(INVALID);
  });
});

describe('float values', () => {
  it.each([
    ['nan', NaN], ['-nan', NaN], ['NaN', NaN],
    ['inf', Infinity], ['-inf', -Infinity], ['Infinity', Infinity], ['-Infinity', -Infinity], ['+inf', Infinity],
    ['1e+30', 1e30], ['-1e-07', -1e-7], ['-0.0', -0], ['.5', 0.5], ['5.', 5],
  ])('reads the CSV field %s', (raw, value) => {
    expect(text('float64', raw)).toBe(value);
  });

  it.each([' 1', '1,5', '0x10', 'nanx', 'infinite', '1e', 'NULL'])('refuses the CSV field %j', (raw) => {
    expect(text('float64', raw)).toBe(INVALID);
  });

  it('reads JSON numbers, bare NaN/Infinity as the JSON Lines reader hands them, and those spelled as strings', () => {
    expect([json('float64', 1.5), json('float64', NaN), json('float64', -Infinity), json('float64', 'NaN'), json('float64', '-Infinity')]).toEqual([1.5, NaN, -Infinity, NaN, -Infinity]);
  });

  it('refuses other strings for a float in JSON', () => {
    expect(json('float32', '1.5')).toBe(INVALID);
  });
});

describe('boolean values', () => {
  it.each([['true', true], ['false', false], ['True', true], ['False', false], ['TRUE', true], ['t', true], ['f', false], ['T', true]])('reads %s', (raw, value) => {
    expect(text('boolean', raw)).toBe(value);
  });

  it.each(['1', '0', 'yes', 'no', 'y', 'NULL', 'tru'])('refuses %s', (raw) => {
    expect(text('boolean', raw)).toBe(INVALID);
  });

  it('reads only JSON booleans in JSON', () => {
    expect([json('boolean', true), json('boolean', 'true'), json('boolean', 1)]).toEqual([true, INVALID, INVALID]);
  });
});

describe('nulls in CSV', () => {
  it('reads an empty unquoted field as null for every type', () => {
    for (const typeText of ['string', 'int64', 'float64', 'decimal(6,2)', 'boolean', 'date', 'timestamp', 'timestamp_ntz', 'binary']) {
      expect(text(typeText, null)).toBeNull();
    }
  });

  it('reads a quoted empty field as the empty string for strings and binary, and as null for other types', () => {
    expect([text('string', ''), text('binary', '')]).toEqual(['', '']);
    for (const typeText of ['int32', 'int64', 'float64', 'decimal(6,2)', 'boolean', 'date', 'timestamp', 'timestamp_ntz']) {
      expect(text(typeText, '')).toBeNull();
    }
  });

  it('reads NULL and \\N as text, not null: a type violation for other types', () => {
    expect([text('string', 'NULL'), text('int64', 'NULL'), text('int64', '\\N'), text('date', 'NULL')]).toEqual(['NULL', INVALID, INVALID, INVALID]);
  });

  it('keeps an empty JSON string a value: JSON has null for a null', () => {
    expect([json('string', ''), json('int64', ''), json('timestamp', '')]).toEqual(['', INVALID, INVALID]);
  });
});

describe('integer values', () => {
  it('reads whole numbers and keeps int64 past 2^53 exact', () => {
    expect([text('int32', '-2147483648'), text('int64', '+7'), text('int64', '123456789012345678')]).toEqual([-(2 ** 31), 7, 123456789012345678n]);
  });

  it('refuses 1.0, which pandas writes for an integer column with nulls, with the fix in the message', () => {
    expect(text('int64', '1.0')).toBe(INVALID);
    expect(describeExpected(type('int64'))).toMatch(/^a 64-bit whole number\nfix: .*floats such as 1.0: give it a nullable integer dtype such as Int64/);
  });

  it('reads JSON integers, exact bigints from long literals, and int64 strings', () => {
    expect([json('int64', 4), json('int64', 123456789012345678n), json('int64', '123456789012345678'), json('int32', 2 ** 31)]).toEqual([4, 123456789012345678n, 123456789012345678n, INVALID]);
  });

  it('refuses a JSON number that is no safe integer: the writer or the parser rounded it', () => {
    expect([json('int64', 2 ** 60), json('int64', 1.5), json('int64', 2n ** 63n)]).toEqual([INVALID, INVALID, INVALID]);
  });
});

describe('decimal values', () => {
  it.each([
    ['12.34', 12.34], ['-0.50', -0.5], ['0.00', 0], ['1E+2', 100], ['1.5e1', 15], ['+3', 3], ['.5', 0.5], ['1234.5600', 1234.56],
  ])('reads %s into decimal(6,2)', (raw, value) => {
    expect(text('decimal(6,2)', raw)).toBe(value);
  });

  it.each(['12345.6', '1.505', '1e4', 'NaN', 'Infinity', '.', 'e5', '.e5', '1,5', '0x10'])('refuses %j for decimal(6,2)', (raw) => {
    expect(text('decimal(6,2)', raw)).toBe(INVALID);
  });

  it('reads JSON numbers as JavaScript prints them, exponents included, and decimal strings', () => {
    expect([json('decimal(18,9)', 1e-7), json('decimal(18,2)', 100.0), json('decimal(6,2)', '12.34'), json('decimal(6,2)', 1e21)]).toEqual([1e-7, 100, 12.34, INVALID]);
  });
});

/** The part of an ISO instant's fraction below a millisecond, in ms (Date.parse drops it). */
function fractionBelowMs(iso: string): number {
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  return fraction.length > 3 ? Number(`0.${fraction.slice(3)}`) : 0;
}
