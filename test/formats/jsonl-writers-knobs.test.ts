import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pl from 'nodejs-polars';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryFile, validate } from '../fixtures/partition.js';
import { expectJsonParsedLikeParse } from './jsonl-parsed-reference.js';
import { KNOB_COLUMNS, KNOB_ROWS, KNOB_TYPES, knobContract } from './text-knobs-table.js';
import { openDuckdbKnobWriter, type DuckdbKnobWriter } from './duckdb-knob-writer.js';

/**
 * The knob table written as JSON Lines by DuckDB (COPY ... FORMAT json), pandas (to_json with
 * lines=True) and polars (writeJSON ndjson), read by contract type from the bytes at chunk sizes
 * down to one byte: each read agrees with JSON.parse and the engine's JSON rules line by line.
 */
const SIZES = [{}, { chunkBytes: 1, batchRows: 7 }, { chunkBytes: 13, batchRows: 64 }];
const jsonlContract = () => ({ ...knobContract(), produces: { ...knobContract().produces, format: 'jsonl' as const } });
let knobs: DuckdbKnobWriter;
beforeAll(async () => {
  knobs = await openDuckdbKnobWriter('cg-jsonl-knobs-');
});
afterAll(() => knobs.close());
const duckdbWrites = (name: string, options: string, setup: readonly string[] = []) => knobs.writes(name, options, setup);

describe.each([
  ['the defaults', 'out.jsonl', 'FORMAT json', []],
  ['COMPRESSION gzip', 'out.jsonl.gz', 'FORMAT json, COMPRESSION gzip', []],
  ['a session at +05:30', 'kolkata.jsonl', 'FORMAT json', ["SET TimeZone = 'Asia/Kolkata'"]],
] as const)('DuckDB COPY (FORMAT json) with %s', (_what, name, options, setup) => {
  it('reads by contract type exactly as JSON.parse and the JSON rules read it, at any chunk size', async () => {
    await expectJsonParsedLikeParse(await duckdbWrites(name, options, setup), KNOB_TYPES, SIZES);
  });

  it('passes the contract of the table', async () => {
    const report = await validate(jsonlContract(), [memoryFile(name, await duckdbWrites(name, options, setup))]);
    expect(report.violations).toEqual([]);
    expect(report.rows).toBe(KNOB_ROWS);
  });
});

describe('polars writeJSON (ndjson)', () => {
  it('reads by contract type exactly as JSON.parse and the JSON rules read it, at any chunk size', async () => {
    const text = pl.DataFrame(Object.fromEntries(KNOB_COLUMNS.map((c) => [c.name, pl.Series(c.name, [...c.values], pl.Utf8)])));
    const typed = text.select(pl.col('id').cast(pl.Int64), pl.col('key'), pl.col('small').cast(pl.Int32), pl.col('ratio').cast(pl.Float64), pl.col('amount').cast(pl.Float64), pl.col('paid').eq(pl.lit('true')).alias('paid'), pl.col('day'), pl.col('placed_at'), pl.col('local_time'), pl.col('note'));
    await expectJsonParsedLikeParse(new Uint8Array(typed.writeJSON({ format: 'lines' })), KNOB_TYPES, SIZES);
  });
});

const CANDIDATES = [process.env.PANDAS_PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => Boolean(p));
const python = CANDIDATES.find((candidate) => spawnSync(candidate, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0);

describe.skipIf(!python)(python ? `pandas to_json(lines=True) (${python})` : 'pandas: skipped, python3 -c "import pandas" fails', () => {
  it.each(['iso-us.jsonl', 'iso.jsonl', 'epoch.jsonl', 'iso-us.jsonl.gz'])('reads %s by contract type exactly as JSON.parse and the JSON rules read it', async (name) => {
    const out = mkdtempSync(join(tmpdir(), 'cg-pandas-jsonl-'));
    try {
      const columns = KNOB_COLUMNS.map((c) => ({ name: c.name, type: c.type, values: c.values.map((v) => (c.type === 'boolean' && v !== null ? v === 'true' : v)) }));
      execFileSync(python!, [fileURLToPath(new URL('pandas-write.py', import.meta.url)), out], { input: JSON.stringify(columns), stdio: ['pipe', 'ignore', 'pipe'] });
      await expectJsonParsedLikeParse(new Uint8Array(readFileSync(join(out, name))), KNOB_TYPES, SIZES);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
