import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';

/** Lines 1-7; `sla:` is line 8 and its first key line 9. */
const HEAD = ['name: orders', 'version: 1.0.0', 'owner: { team: t, notify: [a@example.com] }', 'produces: { format: parquet }', 'schema:', '  columns:', '    - { name: ts, type: timestamp }', 'sla:'];

function load(...lines: string[]) {
  return parseContract([...HEAD, ...lines].join('\n') + '\n', 'orders.v1.yaml');
}

function problems(...lines: string[]) {
  return load(...lines).problems.map(({ severity, code, path, line, column, message }) => ({ severity, code, path, line, column, message }));
}

describe('sla.warn_lag_hours', () => {
  it('loads beside max_lag_hours and freshness_column', () => {
    const { contract, problems: found } = load('  warn_lag_hours: 6', '  max_lag_hours: 26', '  freshness_column: ts');
    expect(found).toEqual([]);
    expect(contract?.sla).toMatchObject({ warnLagHours: 6, maxLagHours: 26, freshnessColumn: 'ts' });
  });

  it('loads alone with freshness_column', () => {
    expect(load('  warn_lag_hours: 1.5', '  freshness_column: ts').contract?.sla?.warnLagHours).toBe(1.5);
  });

  it('needs freshness_column, like max_lag_hours', () => {
    expect(problems('  warn_lag_hours: 6')).toEqual([
      { severity: 'error', code: 'freshness_column_missing', path: 'sla.warn_lag_hours', line: 9, column: 19, message: 'warn_lag_hours needs freshness_column: the timestamp column whose newest value is compared with now' },
    ]);
  });

  it.each([['26'], ['30']])('must be below max_lag_hours (not %s)', (hours) => {
    expect(problems(`  warn_lag_hours: ${hours}`, '  max_lag_hours: 26', '  freshness_column: ts')).toEqual([
      {
        severity: 'error', code: 'warn_not_below_max', path: 'sla.warn_lag_hours', line: 9, column: 19,
        message: `warn_lag_hours (${hours}) must be below max_lag_hours (26): a lag past max_lag_hours already fails the drop, so the warning would never come first`,
      },
    ]);
  });

  it('refuses a negative number of hours', () => {
    expect(problems('  warn_lag_hours: -1', '  freshness_column: ts').map((p) => [p.code, p.message])).toEqual([['invalid_value', 'expected a number of at least 0, found -1']]);
  });

  it('suggests the key a misspelling meant', () => {
    expect(problems('  warn_lag_hour: 6', '  freshness_column: ts').map((p) => p.message)).toEqual(['unknown key "warn_lag_hour"; did you mean "warn_lag_hours"?']);
  });
});
