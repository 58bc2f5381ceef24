import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDuckdb } from './duckdb-session.js';
import { differences, type Outcome } from './outcome.js';
import { isBulkSeed, runSeed, type SeedResult } from './run-seed.js';
import { describeSeed } from './seed-report.js';

/** Seeds 1-40 and the first bulk seed after them (a multi-million-row file read in slices). */
const firstBulk = Array.from({ length: 1000 }, (_, i) => i + 41).find(isBulkSeed)!;
const SEEDS = [...Array.from({ length: 40 }, (_, i) => i + 1), firstBulk];
const ROOT = join(fileURLToPath(new URL('../../', import.meta.url)), '.cache', 'differential', `vitest-${process.pid}`);
const results: SeedResult[] = [];

afterAll(async () => {
  await rm(ROOT, { recursive: true, force: true });
  await closeDuckdb();
});

describe('contract-gate against the DuckDB oracle on seeded contracts and partitions', () => {
  it.each(SEEDS)('seed %i gets the same verdict, rows and per-rule counts from both engines', async (seed) => {
    const result = await runSeed(seed, ROOT);
    results.push(result);
    expect(result.harnessError, describeSeed(result, true)).toBeUndefined();
    expect(result.differences, describeSeed(result, true)).toEqual([]);
  });

  it('plants, across these seeds, a violation of every rule the contract language has', () => {
    const found = new Set(results.flatMap((r) => Object.keys(r.expected?.counts ?? {}).map((key) => key.split(':')[0])));
    const rules = ['missing_column', 'unexpected_column', 'type', 'required', 'enum', 'min', 'max', 'pattern', 'length', 'not_in_future', 'references', 'unique', 'grain', 'min_rows', 'max_rows', 'volume_vs_history', 'freshness'];
    expect(rules.filter((rule) => !found.has(rule))).toEqual([]);
  });

  it('passes some seeds, warns on others and fails others, so every verdict is compared', () => {
    const verdicts = new Set(results.map((r) => r.expected?.status));
    expect([...verdicts].sort()).toEqual(['fail', 'pass', 'warn']);
  });

  it('reports warnings, withholds rows within a tolerance and quarantines past one, across these seeds', () => {
    const expected = results.flatMap((r) => (r.expected ? [r.expected] : []));
    expect(expected.some((e) => Object.values(e.severities).includes('warning'))).toBe(true);
    expect(expected.some((e) => e.tolerance?.withheld === true)).toBe(true);
    expect(expected.some((e) => e.tolerance?.withheld === false)).toBe(true);
  });
});

describe('the comparison of outcomes', () => {
  const outcome = (counts: Record<string, number>, rows = 10): Outcome => ({
    status: Object.keys(counts).length ? 'fail' : 'pass',
    rows,
    fileRows: [rows],
    counts,
    severities: Object.fromEntries(Object.keys(counts).map((key) => [key, 'error'])),
    notes: [],
  });

  it('names each rule whose count differs, with both counts', () => {
    expect(differences(outcome({ 'enum:status': 2, grain: 1 }), outcome({ 'enum:status': 3, grain: 1 }))).toEqual(['enum:status: DuckDB 2, contract-gate 3']);
  });

  it('names a rule only one engine reports, and a verdict or row count that differs', () => {
    expect(differences(outcome({}, 5), outcome({ unreadable: 1 }, 4))).toEqual([
      'status: DuckDB pass, contract-gate fail',
      'rows: DuckDB 5, contract-gate 4',
      'file rows: DuckDB [5], contract-gate [4]',
      'unreadable: DuckDB 0, contract-gate 1',
    ]);
  });

  it('names a severity, a tolerance, withheld rows or a note that differ', () => {
    const expected: Outcome = { ...outcome({ 'enum:status': 2 }), status: 'warn', severities: { 'enum:status': 'warning' }, withheld: { 'part-0000.csv': [1, 4] }, notes: ['volume_vs_history skipped'] };
    const actual: Outcome = { ...outcome({ 'enum:status': 2 }), status: 'warn', tolerance: { invalid_rows: 2, allowed_rows: 2, tolerance: '2 rows', withheld: true }, withheld: { 'part-0000.csv': [1, 5] } };
    expect(differences(expected, actual)).toEqual([
      'severity of enum:status: DuckDB warning, contract-gate error',
      'tolerance: DuckDB none, contract-gate 2 invalid of 2 allowed (2 rows), withheld',
      'withheld rows of part-0000.csv: only DuckDB 1 (4), only contract-gate 1 (5)',
      'notes: DuckDB ["volume_vs_history skipped"], contract-gate []',
    ]);
  });
});
