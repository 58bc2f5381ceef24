import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PARQUET_WRITERS, writerVariant } from '../writers/index.js';
import { BAD_DATA, badDataFiles, describeRecord, failures, runFuzz } from './fuzz-run.js';
import { pathTable, summaryTable } from './fuzz-summary.js';
import { matrixSeedVariants } from './matrix-seeds.js';
import { MUTATION_KINDS } from './mutations.js';
import { seedFiles } from './seed-files.js';

/**
 * A short fuzz run inside `npm test` (the full one is `npm run test:fuzz`): every quick seed gets
 * one file of each mutation kind, read in memory-limited workers, whole or sliced as the file's
 * index says; each must read or be refused with an UnreadableError in time.
 */
const writers = (ids: readonly string[]) => new Set(ids.map((id) => writerVariant(id).writer));

describe('hostile Parquet input', () => {
  it('seeds the fuzzer from files of every writer of the matrix, in its quick and its full run', () => {
    const all = new Set(PARQUET_WRITERS.map((v) => v.writer));
    expect(writers(matrixSeedVariants('quick'))).toEqual(all);
    expect(writers(matrixSeedVariants('full'))).toEqual(all);
    expect(new Set(matrixSeedVariants('full'))).toEqual(new Set(PARQUET_WRITERS.map((v) => v.id)));
  });

  it('reads or refuses mutated files of every seed without a timeout, out-of-memory or crash, whole and sliced', async () => {
    const files = (await seedFiles('quick')).length * MUTATION_KINDS.length;
    const report = await runFuzz({ files, seed: 20261130, badData: false, seeds: 'quick' });
    expect(failures(report).map(describeRecord), `${summaryTable(report)}\n${pathTable(report)}`).toEqual([]);
    expect(report.records).toHaveLength(files);
    // Every mutation kind ran, on both readers, and the run saw both outcomes: it is not all refusals at the door.
    expect(new Set(report.records.map((r) => r.kind))).toEqual(new Set(MUTATION_KINDS));
    expect(new Set(report.records.map((r) => r.path.sliced))).toEqual(new Set([true, false]));
    expect(report.records.some((r) => r.outcome === 'read') && report.records.some((r) => r.outcome === 'unreadable')).toBe(true);
  }, 120_000);

  const corpus = existsSync(BAD_DATA);
  it.skipIf(!corpus)(`reads or refuses every file of the corpus's bad_data${corpus ? '' : ` (skipped: ${BAD_DATA} is absent)`}`, async () => {
    const report = await runFuzz({ files: 0, seed: 1, seeds: 'quick' });
    expect(report.records).toHaveLength(badDataFiles().length);
    expect(failures(report).map(describeRecord)).toEqual([]);
  }, 60_000);
});
