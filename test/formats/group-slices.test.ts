import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashValue } from '../../lib/checks/key-hash.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';
import type { ColumnBatch, TableFile } from '../../lib/formats/table-file.js';
import { wideTable } from '../matrix/wide-table.js';
import { PARQUET_WRITERS, writeCached } from '../writers/index.js';
import { recordingSource } from '../fixtures/table-files.js';

/**
 * Large row groups are read in slices, their pages streamed and decoded a run of rows at a time
 * (lib/formats/group-slices.ts). The slicing reader is held against hyparquet's whole-group decode
 * on files of every writer of the matrix: forcing slices on (a threshold of 0 values) must give
 * the same values, row for row, and key hashes equal to hashing those values.
 */
const ROWS = 20_000;
const table = wideTable(ROWS);
const columns = table.columns.map((c) => c.name);

async function readAll(file: TableFile, hashOnly?: ReadonlySet<string>): Promise<{ batches: ColumnBatch[]; values: Map<string, unknown[]>; hashes: Map<string, number[]> }> {
  const batches: ColumnBatch[] = [];
  for await (const batch of file.batches(columns, hashOnly ? { hashOnly } : {})) batches.push(batch);
  const values = new Map(columns.map((name) => [name, batches.flatMap((b) => Array.from(b.columns.get(name) ?? []))]));
  const hashes = new Map([...(hashOnly ?? [])].map((name) => [name, batches.flatMap((b) => Array.from(b.hashes?.get(name) ?? []))]));
  return { batches, values, hashes };
}

/** The first row where two columns differ, in words; undefined when they agree (cheaper than toEqual on 20k rows). */
function firstDifference(actual: readonly unknown[] = [], expected: readonly unknown[] = []): string | undefined {
  if (actual.length !== expected.length) return `${actual.length} values where ${expected.length} were expected`;
  const same = (a: unknown, b: unknown) => Object.is(a, b) || (a instanceof Uint8Array && b instanceof Uint8Array && Buffer.compare(a, b) === 0);
  const row = actual.findIndex((value, i) => !same(value, expected[i]));
  return row < 0 ? undefined : `row ${row}: ${String(actual[row])} where ${String(expected[row])} was expected`;
}

const sliced = (bytes: Uint8Array) => openParquetFile(byteSourceFromBytes(bytes), { wholeGroupValues: 0 });
/** Every Snappy data page read from the file as it is decoded, never whole (see streamed-page.ts). */
const streamed = (bytes: Uint8Array) => openParquetFile(byteSourceFromBytes(bytes), { wholeGroupValues: 0, streamPageBytes: 0 });
const whole = (bytes: Uint8Array) => openParquetFile(byteSourceFromBytes(bytes), { wholeGroupValues: Infinity });
const READERS = [['in slices', sliced], ['in slices, Snappy pages streamed', streamed]] as const;

describe('reading large row groups in slices', () => {
  for (const [how, read] of READERS) {
    for (const variant of PARQUET_WRITERS) {
      it(`decodes every column of a ${variant.id} file ${how} exactly as the whole-group reader does (${variant.settings})`, async () => {
        const bytes = readFileSync(await writeCached(variant, table, 'wide'));
        const expected = await readAll(whole(bytes));
        const actual = await readAll(read(bytes));
        expect(actual.batches.reduce((n, b) => n + b.rowCount, 0)).toBe(ROWS);
        for (const name of columns) expect(firstDifference(actual.values.get(name), expected.values.get(name)), name).toBeUndefined();
      });
    }

    for (const variant of PARQUET_WRITERS) {
      it(`hashes the string key columns of a ${variant.id} file ${how} from their pages as hashing their decoded values would`, async () => {
        const bytes = readFileSync(await writeCached(variant, table, 'wide'));
        const keys = new Set(table.columns.filter((c) => c.type === 'string').map((c) => c.name));
        const expected = await readAll(whole(bytes));
        const actual = await readAll(read(bytes), keys);
        for (const name of keys) {
          const want = expected.values.get(name)!.map((v) => (v === null || v === undefined ? NaN : hashValue(v)));
          expect(firstDifference(actual.hashes.get(name), want), name).toBeUndefined();
        }
      });
    }
  }

  for (const variant of PARQUET_WRITERS) {
    it(`reads only which rows have a value of every column of a ${variant.id} file asked for presence, as the values show (${variant.settings})`, async () => {
      const bytes = readFileSync(await writeCached(variant, table, 'wide'));
      const expected = await readAll(whole(bytes));
      const batches: ColumnBatch[] = [];
      for await (const batch of sliced(bytes).batches(columns, { presenceOnly: new Set(columns) })) batches.push(batch);
      for (const name of columns) {
        const present = batches.flatMap((b) => Array.from(b.columns.get(name) ?? []));
        const want = expected.values.get(name)!.map((v) => (v === null || v === undefined ? null : true));
        expect(firstDifference(present, want), name).toBeUndefined();
      }
      expect(table.columns.some((c) => c.values.includes(null))).toBe(true);
    });
  }

  for (const variant of PARQUET_WRITERS) {
    it(`gives the rows a caller picks of every column of a ${variant.id} file as the whole-group reader does (${variant.settings})`, async () => {
      const bytes = readFileSync(await writeCached(variant, table, 'wide'));
      const expected = await readAll(whole(bytes));
      const picked = (row: number) => row % 7 === 3;
      const pick = { columns: new Set(columns), rows: (rowStart: number, rowCount: number) => Uint8Array.from({ length: rowCount }, (_, i) => (picked(rowStart + i) ? 1 : 0)) };
      const batches: ColumnBatch[] = [];
      for await (const batch of sliced(bytes).batches(columns, { pick })) batches.push(batch);
      for (const name of columns) {
        const values = batches.flatMap((b) => Array.from(b.columns.get(name) ?? []));
        const only = (list: readonly unknown[] = []) => list.filter((_, row) => picked(row));
        expect(firstDifference(only(values), only(expected.values.get(name))), name).toBeUndefined();
      }
    });
  }

  it('re-reads single rows of a large row group as the whole-group reader does, in one pass', async () => {
    const rows = [0, 1, 4_095, 4_096, 9_999, 12_345, ROWS - 1];
    const variants = PARQUET_WRITERS.filter((v) => ['duckdb-one-group', 'arrow-rs-small-pages', 'polars-default'].includes(v.id));
    expect(variants).toHaveLength(3);
    for (const variant of variants) {
      const bytes = readFileSync(await writeCached(variant, table, 'wide'));
      const read = async (file: TableFile) => {
        const out: unknown[][] = [];
        for await (const batch of file.readRows!(columns, [...rows].reverse())) out.push([batch.rowStart, ...columns.map((name) => batch.columns.get(name)?.[0])]);
        return out;
      };
      const expected = await read(whole(bytes));
      expect(expected.map((r) => r[0])).toEqual(rows);
      for (const [how, reader] of READERS) {
        const actual = await read(reader(bytes));
        for (const [i, row] of actual.entries()) expect(firstDifference(row, expected[i]), `${variant.id} row ${rows[i]} ${how}`).toBeUndefined();
      }
    }
  });

  it('reads a large row group in several batches that cover its rows in order', async () => {
    const bytes = readFileSync(await writeCached(PARQUET_WRITERS.find((v) => v.id === 'duckdb-one-group')!, table, 'wide'));
    const { batches } = await readAll(sliced(bytes));
    expect(batches.length).toBeGreaterThan(1);
    batches.forEach((batch, i) => expect(batch.rowStart).toBe(i === 0 ? 0 : batches[i - 1]!.rowStart + batches[i - 1]!.rowCount));
  });

  it('streams a column chunk through windows instead of fetching it whole', async () => {
    const bytes = readFileSync(await writeCached(PARQUET_WRITERS.find((v) => v.id === 'duckdb-one-group')!, table, 'wide'));
    const source = recordingSource(bytes);
    for await (const batch of openParquetFile(source, { wholeGroupValues: 0 }).batches(['code'])) expect(batch.columns.get('code')).toBeDefined();
    expect(Math.max(...source.reads)).toBeLessThan(bytes.length / 2);
  });
});
