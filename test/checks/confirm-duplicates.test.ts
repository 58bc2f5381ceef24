import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractFrom, counts, memoryFile, validate } from '../fixtures/partition.js';
import { queryRows, sqlString } from '../writers/duckdb-session.js';
import { useDuckDBScratch } from '../writers/duckdb-scratch.js';

/**
 * Keys that differ only past a double's 15 digits (DECIMAL(29,25) as DuckDB writes it): the
 * candidates a hash finds are confirmed on the exact values, in every format. Many repeated keys
 * take the one-pass re-read, a few the row-by-row one; DuckDB's GROUP BY is the oracle.
 */
const session = useDuckDBScratch('cg-confirm-');

beforeAll(async () => {
  // Values from -9999.9999999999999999999999999 (29 digits) up by 10^-4: as doubles, the least is
  // -10000, which decimal(29,25) does not hold.
  await session.connection.run(`CREATE TABLE many AS SELECT (-9999.9999999999999999999999999::DECIMAL(29,25) + (i % 7000)::DECIMAL(8,0) * 0.0001::DECIMAL(5,4))::DECIMAL(29,25) AS amount FROM range(20000) r(i)`);
  await session.connection.run(`CREATE TABLE few AS SELECT (-9999.9999999999999999999999999::DECIMAL(29,25) + (CASE WHEN i < 3 THEN 0 ELSE i END)::DECIMAL(8,0) * 0.0001::DECIMAL(5,4))::DECIMAL(29,25) AS amount FROM range(20000) r(i)`);
});

const COPY = { parquet: 'FORMAT parquet', csv: 'FORMAT csv, HEADER true', jsonl: 'FORMAT json', 'jsonl.gz': 'FORMAT json, COMPRESSION gzip' } as const;

describe.each(Object.keys(COPY) as (keyof typeof COPY)[])('unique keys past 15 digits in %s', (format) => {
  it.each(['many', 'few'])('counts the repeated keys of the %s-duplicates table as DuckDB does', async (table) => {
    const path = session.path(`${table}.${format}`);
    await session.connection.run(`COPY ${table} TO ${sqlString(path)} (${COPY[format]})`);
    const contract = contractFrom(`
name: amounts
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: ${format.split('.')[0]} }
schema:
  columns:
    - { name: amount, type: "decimal(29,25)", required: true, unique: true }
`);
    const report = await validate(contract, [memoryFile(`${table}.${format}`, new Uint8Array(readFileSync(path)))]);
    const [oracle] = await queryRows(session.connection, `SELECT count(*)::INTEGER AS n FROM (SELECT amount FROM ${table} GROUP BY amount HAVING count(*) > 1)`);
    expect(oracle!.n).toBeGreaterThan(0);
    expect(counts(report)).toEqual({ 'unique:amount': oracle!.n });
  });
});
