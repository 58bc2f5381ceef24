import { describe, expect, it } from 'vitest';
import { diffContracts } from '../../lib/compat/diff-contracts.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { ColumnSpec } from '../../lib/contract/model.js';
import { decimalFromText } from '../../lib/contract/exact-value.js';
import { valueRulesFor } from '../../lib/checks/value-rules.js';

const yamlOf = (column: string) => ['name: exact', 'version: 1.0.0', 'owner: { team: t, notify: [t@example.com] }', 'produces: { format: parquet }', 'schema:', '  columns:', `    - ${column}`, ''].join('\n');

function column(text: string): ColumnSpec {
  const { contract, problems } = parseContract(yamlOf(text), 'exact.yaml');
  if (!contract) throw new Error(problems.map((p) => p.message).join('\n'));
  return contract.schema.columns[0]!;
}

const problemsOf = (text: string) => parseContract(yamlOf(text), 'exact.yaml').problems.map((p) => `${p.line}:${p.column} ${p.severity} ${p.message}`);

describe('bounds read exactly from the contract text', () => {
  it('keeps the digits a double drops, beside the double', () => {
    expect(column('{ name: v, type: "decimal(38,10)", max: 1000000.0000000001 }')).toMatchObject({ max: 1000000.0000000001, exactMax: '1000000.0000000001' });
    expect(column('{ name: v, type: int64, max: 9007199254740993 }')).toMatchObject({ max: 9007199254740992, exactMax: '9007199254740993' });
    expect(column('{ name: v, type: timestamp, min: "2026-01-01T00:00:00.000000001Z" }')).toMatchObject({ min: Date.parse('2026-01-01T00:00:00Z'), exactMin: '1767225600000.000001' });
  });

  it('reads dates and timestamps in the years 0 to 99 as written, not as 1900 to 1999', () => {
    expect(column('{ name: v, type: timestamp, min: "0054-02-05T23:48:48.972Z" }').min).toBe(Date.parse('0054-02-05T23:48:48.972Z'));
    expect(column('{ name: v, type: date, min: "0001-01-03" }').min).toBe(Date.parse('0001-01-03T00:00:00Z'));
    expect(problemsOf('{ name: v, type: date, min: "0099-02-29" }')).toEqual(['7:35 error expected an ISO-8601 date (YYYY-MM-DD), found "0099-02-29"']);
  });

  it('refuses, at its line and column, a required_when value past 2^53 that no value could match exactly', () => {
    expect(problemsOf('{ name: v, type: string, required_when: { column: v, in: [9223372036854775807] } }')).toEqual(['7:65 error 9223372036854775807 is past 2^53, which a condition cannot match exactly; list values within ±9007199254740991']);
  });

  it('holds a bound of few digits to those digits, not to its double (1e24 is not 999999999999999983222784)', () => {
    const spec = column('{ name: v, type: "decimal(38,13)", max: 1000000000000000000000000.0000000000000 }');
    const [max] = valueRulesFor(spec, { at: 0, text: '', due: false });
    expect(max!.fails(decimalFromText('999999999999999999999999.9999999999999'))).toBe(false);
    expect(max!.fails(decimalFromText('1000000000000000000000000.0000000000001'))).toBe(true);
    expect(max!.detail).toContain('above the maximum 1000000000000000000000000');
  });

  it('adds nothing where the double is the bound, and reads floats as doubles', () => {
    expect(column('{ name: v, type: "decimal(18,3)", min: 0.1, max: 1e14 }')).not.toHaveProperty('exactMin');
    expect(column('{ name: v, type: float64, max: 1000000.0000000001 }')).not.toHaveProperty('exactMax');
  });

  it('compares min with max exactly', () => {
    expect(problemsOf('{ name: v, type: int64, min: 9007199254740993, max: 9007199254740992 }')).toEqual(['7:36 error min is greater than max']);
    expect(problemsOf('{ name: v, type: int64, min: 9007199254740992, max: 9007199254740993 }')).toEqual([]);
  });

  it('refuses, at its line and column, a bound no value of the type can meet, and warns of one that never binds', () => {
    expect(problemsOf('{ name: v, type: "decimal(9,2)", min: 10000000 }')).toEqual([
      '7:45 error min 10000000 is outside what decimal(9,2) holds -9999999.99 to 9999999.99: no value could meet it; fix the bound or widen the type',
    ]);
    expect(problemsOf('{ name: v, type: "decimal(9,2)", max: 10000000 }')).toEqual([
      '7:45 warning max 10000000 is outside what decimal(9,2) holds -9999999.99 to 9999999.99, so it never fails a value; fix the bound or the type',
    ]);
    expect(problemsOf('{ name: v, type: int64, max: -9223372036854775809 }')[0]).toMatch(/^7:36 error max -9223372036854775809 is outside what int64 holds/);
    expect(problemsOf('{ name: v, type: "decimal(9,2)", max: 9999999.99, min: 0.001 }')).toEqual([]);
  });
});

describe('the compat classifier compares bounds exactly', () => {
  const contract = (max: string) => parseContract(yamlOf(`{ name: v, type: "decimal(38,10)", max: ${max} }`).replace('version: 1.0.0', 'version: 1.0.0'), 'exact.yaml').contract!;

  it('sees a max lowered in its 17th digit as a tightening, and the same digits as no change', () => {
    const lowered = diffContracts(contract('1000000.0000000002'), contract('1000000.0000000001'));
    expect(JSON.stringify(lowered)).toContain('max 1000000.0000000002 → 1000000.0000000001');
    expect(JSON.stringify(diffContracts(contract('1000000.0000000001'), contract('1000000.0000000001')))).not.toContain('max');
  });
});
