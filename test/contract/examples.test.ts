import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { duckdbExample } from '../fixtures/duckdb-example.js';
import { EXAMPLE_DAY, examplePartition } from '../fixtures/example-partitions.js';
import { memoryFile, ordersContract, validate } from '../fixtures/partition.js';

describe('the example partitions in contracts/examples', () => {
  const written = { good: async () => examplePartition('good'), bad: async () => examplePartition('bad'), duckdb: duckdbExample };
  it.each(['good', 'bad', 'duckdb'] as const)('%s is exactly what the fixture generator writes (npm run examples)', async (kind) => {
    const dir = join('contracts', 'examples', 'orders', kind, `dt=${EXAMPLE_DAY}`);
    const expected = await written[kind]();
    expect(readdirSync(dir).sort()).toEqual(expected.map((f) => f.name));
    for (const file of expected) expect(Buffer.compare(readFileSync(join(dir, file.name)), file.bytes)).toBe(0);
  });

  it('duckdb is a file DuckDB wrote, and it keeps the orders contract', async () => {
    const bytes = readFileSync(join('contracts', 'examples', 'orders', 'duckdb', `dt=${EXAMPLE_DAY}`, 'part-0000.parquet'));
    expect(bytes.toString('latin1')).toMatch(/DuckDB version v1\.\d+/);
    const report = await validate(ordersContract(), [memoryFile('part-0000.parquet', bytes)]);
    expect({ status: report.status, rows: report.rows }).toEqual({ status: 'pass', rows: 1500 });
  });

  it('need no DuckDB to be served: nothing under lib/ imports it, so serve --demo runs on production dependencies', () => {
    const sources = readdirSync('lib', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.filter((f) => readFileSync(join('lib', f), 'utf8').includes('@duckdb/'))).toEqual([]);
  });
});
