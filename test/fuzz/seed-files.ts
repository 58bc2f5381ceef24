import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { makeOrders, ORDERS_PARQUET_SCHEMA, type OrdersColumns } from '../fixtures/orders-fixture.js';
import { matrixSeeds, type SeedSelection } from './matrix-seeds.js';

/** A valid file the fuzzer mutates. */
export interface SeedFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

type WriteOptions = Parameters<typeof parquetWriteBuffer>[0];

export const CORPUS = join('..', 'shared', 'corpus', 'parquet-testing');

/** Codecs the writer lacks come from node:zlib, so mutations also reach gzip and brotli decoders. */
const COMPRESSORS: WriteOptions['compressors'] = {
  GZIP: (input) => new Uint8Array(gzipSync(input)),
  BROTLI: (input) => new Uint8Array(brotliCompressSync(input)),
};

function write(options: WriteOptions): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({ compressors: COMPRESSORS, ...options }));
}

function orders(rows: number, options: Partial<WriteOptions>): Uint8Array {
  const columns = makeOrders({ rows });
  const names = Object.keys(columns) as (keyof OrdersColumns)[];
  return write({ columnData: names.map((name) => ({ name, data: columns[name] })), schema: ORDERS_PARQUET_SCHEMA, ...options });
}

/** Low-cardinality strings become a dictionary; unique ones stay plain; every third is null. */
function strings(rows: number, options: Partial<WriteOptions>): Uint8Array {
  const dict = Array.from({ length: rows }, (_, i) => (i % 3 === 0 ? null : ['red', 'green', 'blue', 'cyan'][i % 4]!));
  const plain = Array.from({ length: rows }, (_, i) => (i % 5 === 0 ? null : `value-${i}-${'x'.repeat(i % 9)}`));
  return write({
    columnData: [
      { name: 'colour', data: dict, type: 'STRING' },
      { name: 'label', data: plain, type: 'STRING', encoding: 'PLAIN' },
    ],
    pageSize: 200,
    ...options,
  });
}

/** Required and optional numbers in several encodings, with page indexes, uncompressed. */
function numbers(rows: number): Uint8Array {
  return write({
    columnData: [
      { name: 'id', data: Int32Array.from({ length: rows }, (_, i) => i * 3), type: 'INT32', nullable: false, encoding: 'DELTA_BINARY_PACKED' },
      { name: 'big', data: Array.from({ length: rows }, (_, i) => (i % 4 === 0 ? null : BigInt(i) * 1_000_000_007n)), type: 'INT64' },
      { name: 'ratio', data: Float64Array.from({ length: rows }, (_, i) => i / 7), type: 'DOUBLE', nullable: false, encoding: 'BYTE_STREAM_SPLIT' },
      { name: 'flag', data: Array.from({ length: rows }, (_, i) => i % 3 === 0), type: 'BOOLEAN', nullable: false },
      { name: 'at', data: Array.from({ length: rows }, (_, i) => (i % 6 === 0 ? null : new Date(1_700_000_000_000 + i * 60_000))), type: 'TIMESTAMP' },
      { name: 'name', data: Array.from({ length: rows }, (_, i) => `n${i % 50}`), type: 'STRING', encoding: 'DELTA_BYTE_ARRAY', columnIndex: true },
      { name: 'note', data: Array.from({ length: rows }, (_, i) => (i % 2 ? null : `note ${i}`)), type: 'STRING', encoding: 'DELTA_LENGTH_BYTE_ARRAY' },
    ],
    codec: 'UNCOMPRESSED',
    pageSize: 128,
    rowGroupSize: [70, 50, 80],
  });
}

/** Small corpus files add data page v1, LZ4, ZSTD and dictionary layouts the writer does not make. */
const CORPUS_SEEDS = [
  'data/alltypes_plain.parquet', 'data/alltypes_dictionary.parquet', 'data/alltypes_plain.snappy.parquet',
  'data/nulls.snappy.parquet', 'data/rle_boolean_encoding.parquet', 'data/int32_with_null_pages.parquet',
  'data/lz4_raw_compressed.parquet', 'data/hadoop_lz4_compressed.parquet', 'data/byte_stream_split.zstd.parquet',
  'data/datapage_v1-snappy-compressed-checksum.parquet', 'data/rle-dict-snappy-checksum.parquet',
  'data/fixed_length_decimal.parquet', 'data/delta_length_byte_array.parquet', 'data/delta_encoding_optional_column.parquet',
  'data/byte_stream_split_extended.gzip.parquet',
];

/** Hand-made hyparquet-writer files, small corpus files, then files of every writer of the matrix. */
export async function seedFiles(selection: SeedSelection = 'full'): Promise<SeedFile[]> {
  return [...handMadeSeeds(), ...(await matrixSeeds(selection))];
}

function handMadeSeeds(): SeedFile[] {
  const seeds: SeedFile[] = [
    { name: 'orders-snappy', bytes: orders(240, { rowGroupSize: 100 }) },
    { name: 'orders-uncompressed', bytes: orders(180, { rowGroupSize: 60, codec: 'UNCOMPRESSED', statistics: false }) },
    { name: 'orders-gzip', bytes: orders(120, { codec: 'GZIP' }) },
    { name: 'strings-snappy', bytes: strings(200, { rowGroupSize: [40, 60, 100] }) },
    { name: 'strings-brotli', bytes: strings(120, { codec: 'BROTLI' }) },
    { name: 'numbers-uncompressed', bytes: numbers(200) },
  ];
  for (const path of CORPUS_SEEDS) {
    const full = join(CORPUS, path);
    if (existsSync(full)) seeds.push({ name: path.replace(/^data\//, '').replace(/\.parquet$/, ''), bytes: new Uint8Array(readFileSync(full)) });
  }
  return seeds;
}
