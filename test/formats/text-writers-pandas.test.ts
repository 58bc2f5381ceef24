import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counts, memoryFile, validate } from '../fixtures/partition.js';
import { expectedWith, isoMicros, readBack, WRITER_COLUMNS, WRITER_ROWS, writerContract } from './text-writer-table.js';

/**
 * CSV and JSON Lines exactly as pandas writes them (python3-pandas from apt), made at test
 * time by pandas-write.py. apt installs pandas for the system python3, which a version
 * manager's python3 earlier on PATH may hide, so both are tried (PANDAS_PYTHON first).
 */
const CANDIDATES = [process.env.PANDAS_PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => Boolean(p));
const python = CANDIDATES.find((candidate) => spawnSync(candidate, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0);
const title = python
  ? `pandas (${python})`
  : `pandas: skipped, \`python3 -c 'import pandas'\` fails for ${CANDIDATES.join(', ')}; install it with apt-get install -y python3-pandas or set PANDAS_PYTHON`;

let dir: string;
const read = (name: string) => new Uint8Array(readFileSync(join(dir, name)));

describe.skipIf(!python)(title, () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cg-pandas-text-'));
    execFileSync(python!, [fileURLToPath(new URL('pandas-write.py', import.meta.url)), dir], { input: JSON.stringify(WRITER_COLUMNS), stdio: ['pipe', 'ignore', 'pipe'] });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // pandas writes a float NaN and an empty string alike as an empty field: both read as null.
  const csvDefaults = { ratio: { 1: null }, note: { 1: null } };
  // JSON: pandas writes NaN and the infinities as null. It writes a Decimal as a float to 10
  // places (9999999999.99 as 9999999999.9899997711), which parses back to the same double.
  const jsonDefaults = { ratio: { 1: null, 2: null }, score: { 1: null } };

  it.each([
    ['to_csv with the defaults', 'default.csv', csvDefaults],
    ['to_csv to a .csv.gz', 'default.csv.gz', csvDefaults],
    // QUOTE_ALL writes every null as "": null for other types, the empty string for strings.
    ['to_csv with QUOTE_ALL', 'quote-all.csv', { ratio: { 1: null }, note: { 2: '' } }],
    ["to_json(lines=True, date_format='iso', date_unit='us')", 'iso-us.jsonl', jsonDefaults],
    ['the same to a .jsonl.gz', 'iso-us.jsonl.gz', jsonDefaults],
    ["to_json(lines=True, date_format='iso'), whose milliseconds cut microseconds off", 'iso.jsonl', {
      ...jsonDefaults,
      placed_at: { 0: isoMicros('2026-11-29T00:00:00.123'), 4: isoMicros('1999-12-31T23:59:59.999') },
      local_time: { 4: isoMicros('2026-11-29T23:59:59.999') },
    }],
  ] as const)('reads back what %s wrote', async (_what, name, changes) => {
    const format = name.includes('.jsonl') ? 'jsonl' : 'csv';
    expect(await readBack(read(name), format)).toEqual(expectedWith(changes));
  });

  it('passes the contract for every column of its CSV', async () => {
    const report = await validate(writerContract('csv'), [memoryFile('default.csv', read('default.csv'))]);
    expect(report.violations).toEqual([]);
    expect(report.rows).toBe(WRITER_ROWS);
  });

  it('refuses epoch milliseconds, to_json\'s default for dates and times, naming date_format=\'iso\'', async () => {
    const report = await validate(writerContract('jsonl'), [memoryFile('epoch.jsonl', read('epoch.jsonl'))]);
    expect(counts(report)).toEqual({ 'type:day': 4, 'type:placed_at': 5, 'type:local_time': 4 });
    expect(report.violations.find((v) => v.column === 'placed_at')?.message).toContain("to_json(date_format='iso') rather than epoch numbers");
  });

  it("refuses naive datetimes for a timestamp column, naming tz_localize('UTC')", async () => {
    const report = await validate(writerContract('csv'), [memoryFile('naive.csv', read('naive.csv'))]);
    expect(counts(report)).toEqual({ 'type:placed_at': WRITER_ROWS });
    expect(report.violations[0]!.message).toContain(".dt.tz_localize('UTC')");
    expect(report.violations[0]!.samples[0]!.value).toBe('2026-11-29 00:00:00.123456');
  });
});
