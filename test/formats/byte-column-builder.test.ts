import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { materialize } from '../../lib/formats/column-vector.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';
import type { TableFile } from '../../lib/formats/table-file.js';
import { wideTable } from '../matrix/wide-table.js';
import { PARQUET_WRITERS, writeCached } from '../writers/index.js';

/**
 * String columns asked for as `textBytes` come, where their pages are PLAIN byte arrays, as
 * UTF-8 bytes (ByteVector) instead of strings: held against hyparquet's whole-group decode on
 * files of every writer of the matrix (dictionary pages, PLAIN fallback within a chunk, v2 and
 * delta pages, nulls, empty and multi-byte strings), the bytes decode to the same strings, row for row.
 */
const ROWS = 20_000;
const table = wideTable(ROWS);
const strings = table.columns.filter((c) => c.type === 'string').map((c) => c.name);

async function readStrings(file: TableFile, textBytes?: ReadonlySet<string>): Promise<{ values: Map<string, unknown[]>; vectors: number }> {
  const values = new Map<string, unknown[]>(strings.map((name) => [name, []]));
  let vectors = 0;
  for await (const batch of file.batches(strings, textBytes ? { textBytes } : {})) {
    for (const name of strings) {
      const vector = batch.vectors?.get(name);
      if (vector) vectors++;
      values.get(name)!.push(...(vector ? materialize(vector) : Array.from(batch.columns.get(name) ?? [])));
    }
  }
  return { values, vectors };
}

function firstDifference(actual: readonly unknown[] = [], expected: readonly unknown[] = []): string | undefined {
  if (actual.length !== expected.length) return `${actual.length} values where ${expected.length} were expected`;
  const row = actual.findIndex((value, i) => !Object.is(value, expected[i]));
  return row < 0 ? undefined : `row ${row}: ${String(actual[row])} where ${String(expected[row])} was expected`;
}

const sliced = (bytes: Uint8Array) => openParquetFile(byteSourceFromBytes(bytes), { wholeGroupValues: 0 });
const streamed = (bytes: Uint8Array) => openParquetFile(byteSourceFromBytes(bytes), { wholeGroupValues: 0, streamPageBytes: 0 });
const whole = (bytes: Uint8Array) => openParquetFile(byteSourceFromBytes(bytes), { wholeGroupValues: Infinity });

describe('string columns read as UTF-8 bytes', () => {
  for (const [how, read] of [['in slices', sliced], ['Snappy pages streamed', streamed]] as const) {
    for (const variant of PARQUET_WRITERS) {
      it(`give the strings of a ${variant.id} file ${how} that the whole-group reader decodes (${variant.settings})`, async () => {
        const bytes = readFileSync(await writeCached(variant, table, 'wide'));
        const expected = await readStrings(whole(bytes));
        const actual = await readStrings(read(bytes), new Set(strings));
        for (const name of strings) expect(firstDifference(actual.values.get(name), expected.values.get(name)), name).toBeUndefined();
        if (/nodict|plain/.test(variant.id) && !/v2/.test(variant.id)) expect(actual.vectors).toBeGreaterThan(0);
      });
    }
  }

  it('come as strings when not asked for as bytes', async () => {
    const bytes = readFileSync(await writeCached(PARQUET_WRITERS.find((v) => v.id === 'duckdb-nodict')!, table, 'wide'));
    expect((await readStrings(sliced(bytes))).vectors).toBe(0);
  });
});
