import { afterAll, describe, expect, it } from 'vitest';
import { parseColumnType } from '../../lib/contract/column-type.js';
import { closeDuckdb, queryRows, sqlString } from './duckdb-session.js';
import { textIsValid } from './oracle-text.js';

/** The oracle's reading of text, checked against the examples of the README's type table. */
const EXAMPLES: readonly [type: string, text: string, valid: boolean][] = [
  ['int32', '+7', true], ['int32', '1.0', false], ['int32', '2147483648', false], ['int64', '-9223372036854775808', true],
  ['float64', '1e+30', true], ['float64', '.5', true], ['float64', '-0.0', true], ['float64', '-nan', true], ['float64', 'Infinity', true], ['float64', '1,5', false],
  ['decimal(3,0)', '1E+2', true], ['decimal(3,0)', '1E+3', false], ['decimal(5,2)', '123.450', true], ['decimal(5,2)', '123.456', false], ['decimal(5,2)', 'NaN', false],
  ['boolean', 'True', true], ['boolean', 't', true], ['boolean', '1', false], ['boolean', 'yes', false],
  ['date', '2026-11-29', true], ['date', '2026-11-29T00:00:00.000', true], ['date', '2026-11-29T10:00:00', false], ['date', '2026-02-30', false], ['date', '29/11/2026', false],
  ['timestamp', '2026-11-29 00:00:00+00', true], ['timestamp', '2026-11-29T00:00:00.123456Z', true], ['timestamp', '2026-11-29 00:00:00+05:53:28', true],
  ['timestamp', '2026-11-29 00:00:00+00:00', true], ['timestamp', '2026-11-29 00:00:00', false], ['timestamp', '2026-11-29 00:00:00 +00', false],
  ['timestamp_ntz', '2026-11-29 10:00:00.000000', true], ['timestamp_ntz', '2026-11-29', true], ['timestamp_ntz', '2026-11-29T10:00:00Z', false],
];

afterAll(closeDuckdb);

describe('the oracle reads CSV fields as the README type table says', () => {
  it.each(EXAMPLES)('%s "%s" is valid: %s', async (typeText, text, valid) => {
    const [row] = await queryRows(`SELECT ${textIsValid(parseColumnType(typeText)!, sqlString(text))} AS ok`);
    expect(row?.ok).toBe(valid);
  });
});
