import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { hashString, hashValue } from '../../lib/checks/key-hash.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';

const CORPUS = join('..', 'shared', 'corpus', 'parquet-testing', 'data');

/** Per row group: the hashes the reader computed from pages, and those of hyparquet's decoded values. */
async function bothWays(bytes: Uint8Array, column: string): Promise<{ fromPages: Float64Array | undefined; fromValues: number[] }[]> {
  const table = openParquetFile(byteSourceFromBytes(bytes));
  const hashed = [];
  for await (const batch of table.batches([column], { hashOnly: new Set([column]) })) hashed.push(batch.hashes?.get(column));
  const groups = [];
  let index = 0;
  for await (const batch of table.batches([column])) {
    const values = Array.from(batch.columns.get(column) ?? []);
    groups.push({ fromPages: hashed[index++], fromValues: values.map(hashOfValue) });
  }
  return groups;
}

/**
 * What the engine hashes for a decoded value. hyparquet decodes bytes that are not UTF-8 with
 * replacement characters, which the page bytes do not have; such a value is marked -1 on both
 * sides (see unlessReplaced), as its bytes, not the lossy string, are its identity.
 */
function hashOfValue(value: unknown): number {
  if (value === null || value === undefined) return NaN;
  return typeof value === 'string' && value.includes('\uFFFD') ? -1 : hashValue(value);
}

function unlessReplaced(fromPages: Float64Array, fromValues: readonly number[]): number[] {
  return Array.from(fromPages, (hash, i) => (fromValues[i] === -1 ? -1 : hash));
}

function stringFile(values: (string | null)[], options: { encoding?: 'PLAIN' | 'RLE_DICTIONARY'; codec?: 'SNAPPY' | 'UNCOMPRESSED'; pageSize?: number; rowGroupSize?: number } = {}): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({
    columnData: [{ name: 'key', data: values, type: 'STRING', ...(options.encoding ? { encoding: options.encoding } : {}) }],
    codec: options.codec ?? 'SNAPPY',
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    rowGroupSize: options.rowGroupSize ?? values.length,
  }));
}

describe('hashing key columns from page bytes', () => {
  const keys = Array.from({ length: 3_000 }, (_, i) => (i % 97 === 0 ? null : i % 5 === 0 ? `clé-${i}-北京` : i % 7 === 0 ? '' : `ord_${i}`));

  it.each([
    ['plain pages', { encoding: 'PLAIN' as const }],
    ['a dictionary', { encoding: 'RLE_DICTIONARY' as const }],
    ['uncompressed small pages across row groups', { encoding: 'PLAIN' as const, codec: 'UNCOMPRESSED' as const, pageSize: 1_000, rowGroupSize: 1_100 }],
  ])('gives every row the hash of its decoded value, NaN for null, from %s', async (_, options: Parameters<typeof stringFile>[1]) => {
    const groups = await bothWays(stringFile(keys, options), 'key');
    expect(groups.length).toBe(options?.rowGroupSize ? 3 : 1);
    for (const { fromPages, fromValues } of groups) {
      expect(fromPages).toBeInstanceOf(Float64Array);
      expect(Array.from(fromPages!)).toEqual(fromValues);
    }
    const first = groups[0]!.fromPages!;
    expect(first[1]).toBe(hashString('ord_1'));
    expect(first[0]).toBeNaN();
    expect(first[5]).toBe(hashString('clé-5-北京'));
  });

  it('leaves a column it cannot hash from pages (delta-encoded) to be decoded as values', async () => {
    const bytes = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'key', data: ['a', 'b', 'c'], type: 'STRING', encoding: 'DELTA_LENGTH_BYTE_ARRAY' }] }));
    const table = openParquetFile(byteSourceFromBytes(bytes));
    for await (const batch of table.batches(['key'], { hashOnly: new Set(['key']) })) {
      expect(batch.hashes?.has('key') ?? false).toBe(false);
      expect(Array.from(batch.columns.get('key')!)).toEqual(['a', 'b', 'c']);
    }
  });

  // The Apache corpus (../shared, present in CI) has v1 pages, other writers and codecs.
  it.skipIf(!existsSync(CORPUS))('agrees with the decoded values on every string column of the Apache corpus it can read', async () => {
    let agreed = 0;
    for (const path of parquetFiles(CORPUS)) {
      const bytes = readFileSync(path);
      const schema = await openParquetFile(byteSourceFromBytes(bytes)).schema().catch(() => undefined);
      if (schema?.kind !== 'typed') continue;
      for (const column of schema.columns.filter((c) => c.physical.startsWith('BYTE_ARRAY') && (c.type.kind === 'string' || c.type.kind === 'binary'))) {
        const groups = await bothWays(bytes, column.name).catch(() => []);
        for (const { fromPages, fromValues } of groups) {
          if (!fromPages) continue;
          expect(unlessReplaced(fromPages, fromValues), `${path} ${column.name}`).toEqual(fromValues);
          agreed++;
        }
      }
    }
    expect(agreed).toBeGreaterThan(20);
  });
});

function parquetFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return parquetFiles(path);
    return name.endsWith('.parquet') ? [path] : [];
  });
}
