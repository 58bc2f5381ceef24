import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFiles, corpusPresent, CORPUS_DATA } from './corpus-files.js';
import { corpusCase } from './corpus-oracle.js';
import { reportCounts, unreadableReasons, validateFiles } from './engine-counts.js';

/**
 * Corpus files where contract-gate rightly differs from DuckDB, each with the reason. Everything
 * else DuckDB reads must be read whole, with DuckDB's row and null counts.
 */
const LEGITIMATE_DIFFERENCES: Readonly<Record<string, { readonly unreadable: RegExp; readonly reason: string }>> = {
  // A page header of column "name" declares more page data than its chunk holds. DuckDB reads on
  // regardless; arrow-rs (parquet-wasm) refuses it too ("EOF: Invalid page header").
  'nation.dict-malformed.parquet': { unreadable: /column "name".*declares \d+ bytes of page data/, reason: 'a page header overruns its column chunk' },
  // Its footer's num_rows says 0 beside a row group of 6: issue 28 refuses a footer that disagrees
  // with its row groups (a forged count is how a hostile file hides its size); DuckDB trusts the groups.
  'repeated_no_annotation.parquet': { unreadable: /num_rows says the file holds 0 rows, but its 1 row groups hold 6/, reason: 'its footer num_rows disagrees with its row groups' },
};

/** Files DuckDB 1.5.6 refuses: with no oracle they are out of the matrix (listed so an upgrade that reads them brings them in). */
const DUCKDB_CANNOT_READ: Readonly<Record<string, string>> = {
  'map_no_value.parquet': 'IO Error: MAP_KEY_VALUE requires two children (a MAP whose key_value group has no value field)',
};

const NOW = Date.parse('2026-12-01T00:00:00Z');
const present = corpusPresent();

describe.skipIf(!present)('the Apache parquet-testing corpus (skipped when ../shared/corpus/parquet-testing/data is absent)', () => {
  const files = present ? corpusFiles() : [];

  it('is found whole: dozens of files, each listed exception naming a file that exists', () => {
    expect(files.length).toBeGreaterThan(60);
    expect([...Object.keys(LEGITIMATE_DIFFERENCES), ...Object.keys(DUCKDB_CANNOT_READ)].filter((f) => !files.includes(f))).toEqual([]);
  });

  describe.each(files)('%s', (file) => {
    const path = join(CORPUS_DATA, file);
    const difference = LEGITIMATE_DIFFERENCES[file];

    const outOfMatrix = DUCKDB_CANNOT_READ[file];

    if (outOfMatrix) {
      it(`is one DuckDB cannot read (${outOfMatrix}), so it has no oracle`, async () => {
        expect(await corpusCase(path)).toBeUndefined();
      });
    } else if (!difference) {
      it('is read whole, with DuckDB\'s row count and, for columns a contract requires, DuckDB\'s null counts', async () => {
        const known = await corpusCase(path);
        expect(known, 'DuckDB could not read the file: list it in DUCKDB_CANNOT_READ with its error').toBeDefined();
        const report = await validateFiles(known!.contract, [path], NOW);
        expect(unreadableReasons(report)).toEqual([]);
        expect(reportCounts(report)).toEqual(known!.expected);
      });
    }

    if (difference) {
      it(`is reported unreadable with its reason (${difference.reason}), though DuckDB reads it`, async () => {
        const known = await corpusCase(path);
        expect(known).toBeDefined();
        const report = await validateFiles(known!.contract, [path], NOW);
        expect(unreadableReasons(report).join('\n')).toMatch(difference.unreadable);
      });
    }
  });
});
