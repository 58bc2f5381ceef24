import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BAD_DATA, badDataFiles, failures, runFuzz, type FuzzRecord } from './fuzz-run.js';
import { summaryTable } from './fuzz-summary.js';
import { MUTATION_KINDS } from './mutations.js';

/**
 * A short fuzz run inside `npm test` (the full one is `npm run test:fuzz`): mutated files are
 * read in memory-limited workers, each must read or be refused with an UnreadableError in time.
 */
const FILES = 390;

const describeFailure = (r: FuzzRecord) => `#${r.index} ${r.kind} of ${r.seedFile} (${r.mutation}): ${r.outcome} ${r.detail}`;

describe('hostile Parquet input', () => {
  it(`reads or refuses ${FILES} mutated files without a timeout, out-of-memory or crash`, async () => {
    const report = await runFuzz({ files: FILES, seed: 20261130, badData: false });
    expect(failures(report).map(describeFailure), summaryTable(report)).toEqual([]);
    expect(report.records).toHaveLength(FILES);
    // Every mutation kind ran, and the run saw both outcomes: it is not all refusals at the door.
    expect(new Set(report.records.map((r) => r.kind))).toEqual(new Set(MUTATION_KINDS));
    expect(report.records.some((r) => r.outcome === 'read') && report.records.some((r) => r.outcome === 'unreadable')).toBe(true);
  }, 120_000);

  const corpus = existsSync(BAD_DATA);
  it.skipIf(!corpus)(`reads or refuses every file of the corpus's bad_data${corpus ? '' : ` (skipped: ${BAD_DATA} is absent)`}`, async () => {
    const report = await runFuzz({ files: 0, seed: 1 });
    expect(report.records).toHaveLength(badDataFiles().length);
    expect(failures(report).map(describeFailure)).toEqual([]);
  }, 60_000);
});
