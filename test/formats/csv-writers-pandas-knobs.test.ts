import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counts, memoryFile, validate } from '../fixtures/partition.js';
import { expectParsedLikeText, parsedRead } from './csv-parsed-reference.js';
import { expectKnobValues, KNOB_COLUMNS, KNOB_ROWS, KNOB_TYPES, knobContract } from './text-knobs-table.js';

/**
 * The knob table written by pandas' to_csv with its knobs (pandas-write-knobs.py), read back by
 * the parsed road at chunk sizes down to one byte: each read agrees with the text road, and
 * where the knob keeps values, holds the table. Skipped, saying so, where pandas is missing.
 */
const CANDIDATES = [process.env.PANDAS_PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => Boolean(p));
const python = CANDIDATES.find((candidate) => spawnSync(candidate, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0);
const title = python ? `pandas knobs (${python})` : `pandas knobs: skipped, \`python3 -c 'import pandas'\` fails for ${CANDIDATES.join(', ')}`;
const TINY_SIZES = [{}, { chunkBytes: 1, batchRows: 7 }, { chunkBytes: 13, batchRows: 64 }];

let dir: string;
const read = (name: string) => new Uint8Array(readFileSync(join(dir, name)));

// Every knob but QUOTE_ALL/NONNUMERIC writes a null string as nothing: null. Those quote it: "".
const quotedNulls = (column: string, value: string | null) => (column === 'note' && value === null ? '' : value);

describe.skipIf(!python)(title, () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cg-pandas-knobs-'));
    execFileSync(python!, [fileURLToPath(new URL('pandas-write-knobs.py', import.meta.url)), dir], { input: JSON.stringify(KNOB_COLUMNS), stdio: ['pipe', 'ignore', 'pipe'] });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe.each([
    ['the defaults', 'default.csv', undefined],
    ['gzip (.csv.gz)', 'default.csv.gz', undefined],
    ['QUOTE_ALL', 'quote-all.csv', quotedNulls],
    ['QUOTE_NONNUMERIC', 'quote-nonnumeric.csv', quotedNulls],
    ["lineterminator='\\r\\n'", 'crlf.csv', undefined],
    ["encoding='utf-8-sig' (a byte order mark)", 'bom.csv', undefined],
    ["date_format='%Y-%m-%dT%H:%M:%S.%f%z'", 'iso-offset.csv', undefined],
    ["na_rep='NULL'", 'na-null.csv', false],
  ] as const)('to_csv with %s', (_what, name, lossy) => {
    it('reads parsed exactly as read as text, at any chunk size', async () => {
      await expectParsedLikeText(read(name), KNOB_TYPES, ['key'], TINY_SIZES);
    });

    if (lossy !== false) it('reads back every value pandas was given', async () => {
      expectKnobValues(await parsedRead(read(name), KNOB_TYPES, [], { chunkBytes: 5 }), lossy || undefined);
    });

    if (lossy !== false) it('passes the contract of the table', async () => {
      const report = await validate(knobContract(), [memoryFile(name, read(name))]);
      expect(report.violations).toEqual([]);
      expect(report.rows).toBe(KNOB_ROWS);
    });
  });

  it("reports na_rep='NULL' as type violations of typed columns, and keeps the text NULL in strings", async () => {
    const report = await validate(knobContract(), [memoryFile('na-null.csv', read('na-null.csv'))]);
    const nulls = (column: string) => KNOB_COLUMNS.find((c) => c.name === column)!.values.filter((v) => v === null).length;
    const typed = KNOB_COLUMNS.filter((c) => c.type !== 'string' && nulls(c.name) > 0).map((c) => [`type:${c.name}`, nulls(c.name)]);
    expect(counts(report)).toEqual(Object.fromEntries(typed));
  });

  it("refuses sep='|' as unreadable, saying to write commas", async () => {
    const report = await validate(knobContract(), [memoryFile('pipe.csv', read('pipe.csv'))]);
    expect(report.violations[0]!.samples[0]!.value).toMatch(/it looks pipe-separated/);
  });
});
