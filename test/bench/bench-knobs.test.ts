import { describe, expect, it } from 'vitest';
import { selectCores, selectShapes } from '../../bench/bench-knobs.js';
import { SHAPES } from '../../bench/shape-list.js';

describe('the bench knobs', () => {
  it('make a table on 2 cores and one on 1 core unless BENCH_CORES says otherwise, and only one on a 1-core machine', () => {
    expect(selectCores(undefined, 2)).toEqual([2, 1]);
    expect(selectCores(undefined, 8)).toEqual([2, 1]);
    expect(selectCores(undefined, 1)).toEqual([1]);
    expect(selectCores('1', 2)).toEqual([1]);
    expect(selectCores('1, 2', 2)).toEqual([1, 2]);
  });

  it('refuse a core count the machine does not have, naming the knob and what it takes', () => {
    expect(() => selectCores('4', 2)).toThrow(/BENCH_CORES must be a comma list of core counts from 1 to 2 .*got "4"/);
    expect(() => selectCores('two', 2)).toThrow(/BENCH_CORES/);
  });

  it('leave the opt-in shapes out of the default list, and take them when named or with `all`', () => {
    const optIn = SHAPES.filter((s) => s.optIn).map((s) => s.id);
    expect(optIn).toContain('duckdb-default-5m');
    expect(selectShapes(undefined).map((s) => s.id)).not.toContain('duckdb-default-5m');
    expect(selectShapes(undefined).map((s) => s.id)).toEqual(expect.arrayContaining(['lineitem-6m', 'duckdb-snappy-2m', 'duckdb-v2-2m', 'duckdb-one-group-2m']));
    expect(selectShapes('duckdb-default-5m').map((s) => s.id)).toEqual(['duckdb-default-5m']);
    expect(selectShapes('all')).toHaveLength(SHAPES.length);
  });
});
