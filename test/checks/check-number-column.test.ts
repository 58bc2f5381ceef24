import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../lib/report/report.js';
import { counts, memoryFile, validate } from '../fixtures/partition.js';
import { openDuckDB, sqlString } from '../writers/duckdb-session.js';
import { numberEdgeContract, numberEdgeSql } from './number-edge-table.js';

/**
 * The same rows written in one large row group, which the reader hands over as number vectors
 * (checked by check-number-column.ts, keys hashed by vector-keys.ts), and in groups small enough
 * that hyparquet decodes them as values (INT64 as bigint) for the per-value loop: the reports
 * must be the same, sample for sample, span for span.
 */
const ROWS = 20_000;

let dir: string;
let session: Awaited<ReturnType<typeof openDuckDB>>;
const path = (name: string) => join(dir, name);
const file = (name: string, as = `dt=2026-11-29/${name}`) => memoryFile(as, readFileSync(path(name)));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-number-column-'));
  session = await openDuckDB();
  const write = (name: string, options: string, sql = numberEdgeSql(ROWS)) => session.connection.run(`COPY (${sql}) TO ${sqlString(path(name))} (FORMAT parquet, ${options})`);
  await write('vectors.parquet', 'ROW_GROUP_SIZE 100000');
  await write('vectors-v2.parquet', "ROW_GROUP_SIZE 100000, PARQUET_VERSION 'V2'");
  await write('values.parquet', 'ROW_GROUP_SIZE 2048');
  // A second file repeating some of the first's grain keys.
  await write('again.parquet', 'ROW_GROUP_SIZE 2048', `SELECT * FROM (${numberEdgeSql(ROWS)}) WHERE g1 % 7 = 0 LIMIT 1000`);
  await write('again-vectors.parquet', 'ROW_GROUP_SIZE 100000', `SELECT * FROM (${numberEdgeSql(ROWS)}) WHERE g1 % 7 = 0 LIMIT 5000`);
}, 120_000);

afterAll(() => {
  session?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The report without what differs between the two files (their sizes). */
function comparable(report: Report): unknown {
  return { ...report, files: report.files.map((f) => ({ ...f, bytes: 0 })) };
}

describe('numbers checked as vectors', () => {
  it('report every violation, sample and observed range as the per-value loop over the same rows does', async () => {
    const [vectors, values] = await Promise.all([
      validate(numberEdgeContract(), [file('vectors.parquet', 'dt=2026-11-29/part.parquet')]),
      validate(numberEdgeContract(), [file('values.parquet', 'dt=2026-11-29/part.parquet')]),
    ]);
    expect(counts(vectors)).toMatchObject({ 'required:i64': expect.any(Number), 'max:i64': 1, 'min:d': expect.any(Number), 'not_in_future:ts': expect.any(Number), grain: expect.any(Number) });
    expect(comparable(vectors)).toEqual(comparable(values));
  });

  it('report alike when the pages are DuckDB v2 pages', async () => {
    const [vectors, values] = await Promise.all([
      validate(numberEdgeContract(), [file('vectors-v2.parquet', 'dt=2026-11-29/part.parquet')]),
      validate(numberEdgeContract(), [file('values.parquet', 'dt=2026-11-29/part.parquet')]),
    ]);
    expect(comparable(vectors)).toEqual(comparable(values));
  });

  it('find a composite grain key read as doubles in one file repeated where another file holds it as bigints', async () => {
    const mixed = await validate(numberEdgeContract(), [file('vectors.parquet', 'dt=2026-11-29/a.parquet'), file('again.parquet', 'dt=2026-11-29/b.parquet')]);
    const old = await validate(numberEdgeContract(), [file('values.parquet', 'dt=2026-11-29/a.parquet'), file('again.parquet', 'dt=2026-11-29/b.parquet')]);
    const alone = await validate(numberEdgeContract(), [file('vectors.parquet', 'dt=2026-11-29/a.parquet')]);
    expect(counts(mixed).grain).toBeGreaterThan(counts(alone).grain!);
    expect(comparable(mixed)).toEqual(comparable(old));
    const reversed = await validate(numberEdgeContract(), [file('values.parquet', 'dt=2026-11-29/a.parquet'), file('again-vectors.parquet', 'dt=2026-11-29/b.parquet')]);
    const reversedOld = await validate(numberEdgeContract(), [file('values.parquet', 'dt=2026-11-29/a.parquet'), file('again.parquet', 'dt=2026-11-29/b.parquet')]);
    expect(counts(reversed).grain).toBeGreaterThan(counts(reversedOld).grain!);
  });
});
