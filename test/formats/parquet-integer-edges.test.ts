import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../lib/report/report.js';
import { contractOfColumns, counts, memoryFile, validate } from '../fixtures/partition.js';
import { openDuckDB, sqlString } from '../writers/duckdb-session.js';
import { duckdbOracle, EDGE_WRITERS, edgeTableSql } from './integer-edge-writers.js';

/**
 * Integers of every width and sign at their edges, from every writer that writes them, read by
 * the gate and by DuckDB (the oracle): the counts outside each bound, the repeated values and the
 * observed range agree, or the column is refused. Bounds sit where a sign or width error moves a
 * value across them (2^31 for UINT_32, 128 for UINT_8, ...).
 */
const ROWS = 20_000;
const BOUNDS: Record<string, { type: string; low: string; high: string; unique?: boolean }> = {
  u8: { type: 'int32', low: '1', high: '127' },
  u16: { type: 'int32', low: '1', high: '32767' },
  u32: { type: 'int64', low: '1', high: '2147483647', unique: true },
  u64: { type: 'int64', low: '1', high: '4503599627370496' },
  i8: { type: 'int32', low: '-127', high: '126' },
  i16: { type: 'int32', low: '-32767', high: '32766' },
  i32: { type: 'int32', low: '-2147483647', high: '2147483646', unique: true },
  i64: { type: 'int64', low: '-4503599627370496', high: '4503599627370496' },
};

const contract = contractOfColumns('integer_edges', '{ name: id, type: int32, required: true }',
  ...Object.entries(BOUNDS).map(([name, b]) => `{ name: ${name}, type: ${b.type}, min: ${b.low}, max: ${b.high}${b.unique ? ', unique: true' : ''} }`));

let dir: string;
let session: Awaited<ReturnType<typeof openDuckDB>>;
const staging = () => join(dir, 'staging.parquet');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-integer-edges-'));
  session = await openDuckDB();
  await session.connection.run(`COPY (${edgeTableSql(ROWS)}) TO ${sqlString(staging())} (FORMAT parquet)`);
});

afterAll(() => {
  session?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(EDGE_WRITERS)('integers at their edges written by $id', (writer) => {
  let path: string;
  let report: Report;

  beforeAll(async () => {
    path = join(dir, `${writer.id}.parquet`);
    await writer.write(session.connection, staging(), path);
    report = await validate(contract, [memoryFile('dt=2026-11-29/part.parquet', readFileSync(path))]);
  });

  it('counts every row outside the bounds and every repeated value as DuckDB does', async () => {
    const got = counts(report);
    for (const [name, bound] of Object.entries(BOUNDS)) {
      if (name === 'u64') continue;
      const oracle = await duckdbOracle(session.connection, path, name, bound.low, bound.high);
      expect({ column: name, below: got[`min:${name}`] ?? 0, above: got[`max:${name}`] ?? 0, repeated: bound.unique ? got[`unique:${name}`] ?? 0 : oracle.repeated })
        .toEqual({ column: name, below: Number(oracle.below), above: Number(oracle.above), repeated: Number(oracle.repeated) });
    }
  });

  it('reports the observed range DuckDB reads', async () => {
    for (const name of Object.keys(BOUNDS)) {
      if (name === 'u64' || name === 'i64') continue;
      const oracle = await duckdbOracle(session.connection, path, name, '0', '0');
      const observed = report.observed?.find((o) => o.column === name);
      expect({ column: name, min: observed?.min, max: observed?.max }).toEqual({ column: name, min: oracle.min, max: oracle.max });
    }
  });

  it('refuses an unsigned 64-bit column rather than read it', () => {
    expect(report.status).toBe('fail');
    expect(report.violations.filter((v) => v.column === 'u64').map((v) => v.rule)).toEqual(['type']);
  });
});
