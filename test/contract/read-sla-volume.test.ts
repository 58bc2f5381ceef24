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

/** `  volume_vs_history: ` is 21 characters: the `{` is column 22. */
const volume = (mapping: string) => `  volume_vs_history: ${mapping}`;

describe('sla.volume_vs_history', () => {
  it('loads both ratios and the lookback', () => {
    const { contract, problems: found } = load(volume('{ lookback: 14, min_ratio: 0.5, max_ratio: 3 }'));
    expect(found).toEqual([]);
    expect(contract?.sla?.volumeVsHistory).toEqual({ lookback: 14, minRatio: 0.5, maxRatio: 3 });
  });

  it('looks back 7 partitions unless told, and takes one ratio alone', () => {
    expect(load(volume('{ min_ratio: 0.9 }')).contract?.sla?.volumeVsHistory).toEqual({ lookback: 7, minRatio: 0.9 });
    expect(load(volume('{ max_ratio: 2 }')).contract?.sla?.volumeVsHistory).toEqual({ lookback: 7, maxRatio: 2 });
    expect(load(volume('{ min_ratio: 0 }')).contract?.sla?.volumeVsHistory).toEqual({ lookback: 7, minRatio: 0 });
  });

  it('is absent from an sla that does not write it', () => {
    expect(load('  min_rows: 1').contract?.sla).not.toHaveProperty('volumeVsHistory');
  });

  it('needs at least one ratio', () => {
    expect(problems(volume('{ lookback: 7 }'))).toEqual([
      { severity: 'error', code: 'missing_key', path: 'sla.volume_vs_history.min_ratio', line: 9, column: 22, message: 'volume_vs_history needs min_ratio, max_ratio or both: the row count as a multiple of the median, e.g. { min_ratio: 0.5, max_ratio: 2 }' },
    ]);
  });

  it.each([
    ['2', 'expected a whole number of partitions from 3 to 366, found 2; the median needs at least 3 (default 7)'],
    ['367', 'expected a whole number of partitions from 3 to 366, found 367; the median needs at least 3 (default 7)'],
  ])('refuses a lookback of %s', (lookback, message) => {
    expect(problems(volume(`{ lookback: ${lookback}, min_ratio: 0.5 }`))).toEqual([
      { severity: 'error', code: 'invalid_value', path: 'sla.volume_vs_history.lookback', line: 9, column: 34, message },
    ]);
  });

  it('refuses a lookback that is not a whole number', () => {
    expect(problems(volume('{ lookback: 7.5, min_ratio: 0.5 }')).map((p) => [p.code, p.message])).toEqual([['wrong_type', 'expected a whole number, found number 7.5']]);
  });

  it('refuses a negative min_ratio, a max_ratio of 0 and a min_ratio above max_ratio', () => {
    expect(problems(volume('{ min_ratio: -1 }')).map((p) => [p.code, p.path, p.message])).toEqual([['invalid_value', 'sla.volume_vs_history.min_ratio', 'expected a number of at least 0, found -1']]);
    expect(problems(volume('{ max_ratio: 0 }')).map((p) => [p.code, p.path, p.message])).toEqual([
      ['invalid_value', 'sla.volume_vs_history.max_ratio', 'expected a number above 0: a max_ratio of 0 fails every partition with rows'],
    ]);
    expect(problems(volume('{ min_ratio: 3, max_ratio: 2 }'))).toEqual([
      { severity: 'error', code: 'min_greater_than_max', path: 'sla.volume_vs_history.min_ratio', line: 9, column: 35, message: 'min_ratio is greater than max_ratio' },
    ]);
  });

  it('suggests the key a misspelling meant, and says where a ratio written on the sla belongs', () => {
    expect(problems(volume('{ min_raito: 0.5, max_ratio: 2 }')).map((p) => [p.code, p.message])).toEqual([['unknown_key', 'unknown key "min_raito"; did you mean "min_ratio"?']]);
    expect(problems('  lookback: 7').map((p) => p.message)).toEqual(['unknown key "lookback"; write it under volume_vs_history: { lookback: 7, min_ratio: 0.5, max_ratio: 2 }']);
  });
});
