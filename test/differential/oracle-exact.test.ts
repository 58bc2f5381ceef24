import { afterAll, describe, expect, it } from 'vitest';
import { parseColumnType } from '../../lib/contract/column-type.js';
import { closeDuckdb, queryRows, sqlString } from './duckdb-session.js';
import { nextFloat32, nextFloat64 } from './edge-floats.js';
import { exactSpace } from './exact-space.js';
import { isoNanos } from './exact-time.js';
import { orderedValue } from './oracle-rules.js';
import { textValue } from './oracle-text.js';

afterAll(closeDuckdb);

/** [type, value as CSV text, bound tick, whether the value is above the bound]: one unit apart, where doubles see none. */
const ABOVE: readonly [string, string, bigint, boolean][] = [
  ['decimal(38,10)', '1000000.0000000002', 10_000_000_000_000_001n, true],
  ['decimal(38,10)', '1000000.0000000001', 10_000_000_000_000_001n, false],
  ['decimal(38,37)', '9.9999999999999999999999999999999999999', 99_999_999_999_999_999_999_999_999_999_999_999_998n, true],
  ['int64', '9007199254740993', 9_007_199_254_740_992n, true],
  ['int64', '-9223372036854775808', -9_223_372_036_854_775_807n, false],
  ['timestamp', '1969-12-31T23:59:59.999999999Z', -2n, true],
  ['timestamp', '1970-01-01 05:30:00.000000001+05:30', 0n, true],
  ['timestamp_ntz', '2262-04-11 23:47:16.854775807', 9_223_372_036_854_775_806n, true],
  ['timestamp_ntz', '2262-04-11 23:47:16.854775806', 9_223_372_036_854_775_806n, false],
];

describe('the oracle compares values with bounds exactly, at the bound text', () => {
  it.each(ABOVE)('%s %s above the bound at tick %s: %s', async (typeText, text, tick, above) => {
    const type = parseColumnType(typeText)!;
    const bound = exactSpace(type, 'ns')!.boundSql(tick);
    const [row] = await queryRows(`SELECT ${orderedValue(type, textValue(type, sqlString(text)))} > ${bound} AS above`);
    expect(row?.above).toBe(above);
  });
});

describe('edge values are spelled and stepped exactly', () => {
  it('writes an instant before 1970 with its positive fraction, in each unit', () => {
    expect(isoNanos(-1n, 9)).toBe('1969-12-31T23:59:59.999999999Z');
    expect(isoNanos(-1000n, 6, 'none', ' ')).toBe('1969-12-31 23:59:59.999999');
    expect(isoNanos(1_500_000n, 3, 330)).toBe('1970-01-01T05:30:00.001+05:30');
  });

  it('steps one ulp past the largest finite float to Infinity and one below it in single precision', () => {
    expect(nextFloat64(1.7976931348623157e308, 1)).toBe(Infinity);
    expect(nextFloat64(0, -1)).toBe(-5e-324);
    expect(nextFloat32(3.4028234663852886e38, -1)).toBe(3.4028232635611926e38);
    expect(nextFloat32(0.1, 1)).toBe(Math.fround(0.1));
  });
});
