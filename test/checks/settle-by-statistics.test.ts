import { parquetMetadata } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import type { PartitionFile } from '../../lib/checks/validate-partition.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { makeOrders, ordersToParquet, type Plant } from '../fixtures/orders-fixture.js';
import { contractFrom, counts, validate } from '../fixtures/partition.js';

/** Only rules the footer can prove: nulls by null_count, bounds by min/max. */
const PROVABLE = contractFrom(`
name: orders
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: parquet }
schema:
  columns:
    - { name: amount, type: "decimal(12,2)", required: true, min: 0 }
    - { name: ordered_at, type: timestamp, required: true, not_in_future: true }
    - { name: updated_at, type: timestamp, required: true }
sla: { max_lag_hours: 26, freshness_column: updated_at }
`);
const NOW = Date.parse('2026-11-30T05:00:00Z');

function countingFile(path: string, bytes: Uint8Array): { file: PartitionFile; read: () => number } {
  let read = 0;
  const inner = byteSourceFromBytes(bytes);
  const source = { byteLength: bytes.byteLength, slice: (start: number, end?: number) => ((read += (end ?? bytes.byteLength) - start), inner.slice(start, end)) };
  return { file: { path, byteLength: bytes.byteLength, open: async () => ({ source, close: async () => {} }) }, read: () => read };
}

/** The bytes of `column`'s chunks in every row group. */
function chunkBytes(bytes: Uint8Array, column: string): number {
  const groups = parquetMetadata(bytes.slice().buffer).row_groups;
  return groups.reduce((sum, group) => sum + Number(group.columns.find((c) => c.meta_data?.path_in_schema[0] === column)!.meta_data!.total_compressed_size), 0);
}

function orders(plant: Plant[] = [], statistics = true): Uint8Array {
  return ordersToParquet(makeOrders({ rows: 40_000, plant }), { rowGroupSize: 10_000, statistics });
}

describe('rules proven by Parquet footer statistics', () => {
  it('settles required, not_in_future and freshness from the footer without decoding; decimal bounds only from writers believed for them', async () => {
    const bytes = orders();
    const { file, read } = countingFile('a.parquet', bytes);
    const report = await validate(PROVABLE, [file], NOW);
    expect(report.status).toBe('pass');
    expect(report.rows).toBe(40_000);
    // hyparquet-writer names no version, and some wrote wrong decimal bounds (statistics-trust.ts): amount's min is decoded.
    expect(read()).toBeLessThan(bytes.byteLength * 0.1 + chunkBytes(bytes, 'amount'));
  });

  it('decodes only the row group whose statistics cross a bound, and reports the exact row', async () => {
    const bytes = orders([{ row: 25_000, column: 'ordered_at', value: new Date(NOW + 1_000) }]);
    const { file, read } = countingFile('a.parquet', bytes);
    const report = await validate(PROVABLE, [file], NOW);
    expect(report.violations).toEqual([expect.objectContaining({ rule: 'not_in_future', column: 'ordered_at', count: 1, samples: [{ file: 'a.parquet', row: 25_000, value: new Date(NOW + 1_000).toISOString() }] })]);
    expect(read()).toBeLessThan(bytes.byteLength * 0.2 + chunkBytes(bytes, 'amount'));
  });

  it('still names the newest value when freshness fails on statistics alone', async () => {
    const newest = Math.max(...makeOrders({ rows: 40_000 }).updated_at.map((d) => d!.getTime()));
    const report = await validate(PROVABLE, [countingFile('a.parquet', orders()).file], NOW + 72 * 3_600_000);
    expect(report.violations).toEqual([expect.objectContaining({ rule: 'freshness', samples: [{ file: 'a.parquet', row: null, value: new Date(newest).toISOString() }] })]);
  });

  it('gives the same verdict when the file has no statistics, by decoding', async () => {
    const plant: Plant[] = [{ row: 10, column: 'amount', value: null }, { row: 39_999, column: 'ordered_at', value: new Date(NOW + 1) }];
    const withStats = await validate(PROVABLE, [countingFile('a.parquet', orders(plant)).file], NOW);
    const withoutStats = await validate(PROVABLE, [countingFile('a.parquet', orders(plant, false)).file], NOW);
    expect(counts(withStats)).toEqual({ 'required:amount': 1, 'not_in_future:ordered_at': 1 });
    expect(withoutStats.violations).toEqual(withStats.violations);
  });
});

/** Rules on values that a dictionary page proves: every value a chunk holds is one of its entries. */
const DICTIONARY_RULES = contractFrom(`
name: orders
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: parquet }
schema:
  columns:
    - { name: status, type: string, required: true, enum: [placed, paid, cancelled] }
    - { name: coupon, type: string, pattern: "^WINTER[0-9]+$", max_length: 8 }
`);

describe('rules proven by dictionary pages', () => {
  it('settles enum, pattern and length from each row group\'s dictionary without decoding a data page', async () => {
    const bytes = orders();
    const { file, read } = countingFile('a.parquet', bytes);
    const report = await validate(DICTIONARY_RULES, [file], NOW);
    expect(report.status).toBe('pass');
    // The footer comes in one 64 KiB read from the end; the dictionaries are a few hundred bytes.
    expect(read()).toBeLessThan(65_536 + bytes.byteLength * 0.01);
  });

  it('decodes only the row groups whose dictionary holds a bad value, and reports the exact rows', async () => {
    const bytes = orders([{ row: 25_000, column: 'status', value: 'pending' }, { row: 5_000, column: 'coupon', value: 'SPRING1' }, { row: 5_001, column: 'coupon', value: 'WINTER12345' }]);
    const { file, read } = countingFile('a.parquet', bytes);
    const report = await validate(DICTIONARY_RULES, [file], NOW);
    expect(report.violations).toEqual([
      expect.objectContaining({ rule: 'enum', column: 'status', count: 1, samples: [{ file: 'a.parquet', row: 25_000, value: 'pending' }] }),
      expect.objectContaining({ rule: 'pattern', column: 'coupon', count: 1, samples: [{ file: 'a.parquet', row: 5_000, value: 'SPRING1' }] }),
      expect.objectContaining({ rule: 'length', column: 'coupon', count: 1, samples: [{ file: 'a.parquet', row: 5_001, value: 'WINTER12345' }] }),
    ]);
    expect(read()).toBeLessThan(bytes.byteLength * 0.1);
  });

  it('gives the same verdict when the footer cannot prove the pages are all dictionary, by decoding', async () => {
    const plant: Plant[] = [{ row: 25_000, column: 'status', value: 'pending' }, { row: 39_999, column: 'coupon', value: 'x' }];
    const proven = await validate(DICTIONARY_RULES, [countingFile('a.parquet', orders(plant)).file], NOW);
    // Without statistics the writer leaves out encoding_stats, so no dictionary is trusted.
    const decoded = await validate(DICTIONARY_RULES, [countingFile('a.parquet', orders(plant, false)).file], NOW);
    expect(counts(proven)).toEqual({ 'enum:status': 1, 'pattern:coupon': 1 });
    expect(decoded.violations).toEqual(proven.violations);
  });
});
