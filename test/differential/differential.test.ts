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
    const rules = ['missing_column', 'unexpected_column', 'type', 'required', 'enum', 'min', 'max', 'pattern', 'length', 'not_in_future', 'unique', 'grain', 'min_rows', 'max_rows', 'freshness'];
    expect(rules.filter((rule) => !found.has(rule))).toEqual([]);
  });

  it('passes some seeds and fails others, so both verdicts are compared', () => {
    const verdicts = new Set(results.map((r) => r.expected?.status));
    expect([...verdicts].sort()).toEqual(['fail', 'pass']);
  });
});

describe('the comparison of outcomes', () => {
  const outcome = (counts: Record<string, number>, rows = 10): Outcome => ({ status: Object.keys(counts).length ? 'fail' : 'pass', rows, fileRows: [rows], counts });

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
});
