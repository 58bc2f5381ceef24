import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashValue } from '../../lib/checks/key-hash.js';
import { toSampleValue } from '../../lib/checks/sample-value.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { materialize, type ColumnVector } from '../../lib/formats/column-vector.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';
import type { ColumnBatch } from '../../lib/formats/table-file.js';
import { openDuckDB, sqlString } from '../writers/duckdb-session.js';
import { numberEdgeSql } from '../checks/number-edge-table.js';

/** PLAIN fixed-width numbers read into doubles with a null mask (number-runs.ts), against the values the reader gives without. */
const ROWS = 20_000;
const NUMBERS = ['g1', 'g2', 'i64', 'i64big', 'i32', 'd', 'f', 'ts_ms', 'ts', 'ts_ns', 'dt', 'dec', 'dec18'];

let dir: string;
let session: Awaited<ReturnType<typeof openDuckDB>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-number-runs-'));
  session = await openDuckDB();
  await session.connection.run(`COPY (${numberEdgeSql(ROWS)}) TO ${sqlString(join(dir, 'v1.parquet'))} (FORMAT parquet, ROW_GROUP_SIZE 100000)`);
}, 120_000);

afterAll(() => {
  session?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function read(vectors: boolean): Promise<ColumnBatch[]> {
  const table = openParquetFile(byteSourceFromBytes(readFileSync(join(dir, 'v1.parquet'))));
  const batches: ColumnBatch[] = [];
  for await (const batch of table.batches(NUMBERS, { vectors })) batches.push(batch);
  return batches;
}

/** A value as every rule, sample and hash sees it: an int64 within ±(2^53 − 1) as its number. */
const seen = (value: unknown) => (value === null ? null : [hashValue(value), toSampleValue(value)]);

describe('PLAIN numbers read as vectors', () => {
  it('arrive as doubles with a null mask that the checks see as the values read without vectors', async () => {
    const [vectors, values] = await Promise.all([read(true), read(false)]);
    expect(vectors.length).toBe(values.length);
    const delivered = (kind: ColumnVector['kind']) => [...new Set(vectors.flatMap((b) => [...(b.vectors ?? [])].filter(([, v]) => v.kind === kind).map(([name]) => name)))].sort();
    // g2 repeats two dates, and DuckDB writes it with a dictionary: not a PLAIN page, but indices.
    expect(delivered('number')).toEqual(NUMBERS.filter((n) => n !== 'g2').sort());
    expect(delivered('dictionary')).toEqual(['g2']);
    for (const [index, batch] of vectors.entries()) {
      for (const name of NUMBERS) {
        const vector: ColumnVector | undefined = batch.vectors?.get(name);
        const got = vector ? materialize(vector) : Array.from(batch.columns.get(name)!);
        const want = Array.from(values[index]!.columns.get(name)!);
        expect(got.map(seen), `${name} in batch ${index}`).toEqual(want.map(seen));
      }
    }
  });

  it('leave a run holding an INT64 past ±(2^53 − 1), a time past the millisecond or a decimal past 10^15 units as exact values', async () => {
    const batches = await read(true);
    const holding = (row: number) => batches.find((b) => row >= b.rowStart && row < b.rowStart + b.rowCount)!;
    expect(holding(15_000).vectors?.has('i64big')).toBe(false);
    expect(holding(15_000).columns.get('i64big')![15_000 - holding(15_000).rowStart]).toBe(2n ** 53n);
    expect(holding(12_000).vectors?.has('ts')).toBe(false);
    expect(holding(17_001).vectors?.has('ts_ns')).toBe(false);
    expect(holding(0).vectors?.get('i64')).toMatchObject({ kind: 'number' });
    expect(materialize(holding(0).vectors!.get('i64')!).slice(0, 2)).toEqual([9007199254740991, -9007199254740991]);
    expect(batches.some((b) => b.vectors?.has('dec18') === false && b.columns.has('dec18'))).toBe(true);
  });
});
