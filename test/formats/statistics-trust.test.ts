import type { SchemaElement, Statistics } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { parseCreatedBy, statisticKind, statisticsTrust, trustedStatistics } from '../../lib/formats/statistics-trust.js';
import { CREATED_BY } from '../../lib/rows/parquet-rewrite.js';

const INT64: SchemaElement = { name: 'n', type: 'INT64', repetition_type: 'OPTIONAL' };
const TIMESTAMP: SchemaElement = { name: 't', type: 'INT64', repetition_type: 'OPTIONAL', converted_type: 'TIMESTAMP_MILLIS' };
const UINT32: SchemaElement = { name: 'u', type: 'INT32', repetition_type: 'OPTIONAL', logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: false } };
const UINT8: SchemaElement = { name: 'u8', type: 'INT32', repetition_type: 'OPTIONAL', converted_type: 'UINT_8' };
const DECIMAL_FIXED: SchemaElement = { name: 'd', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, repetition_type: 'OPTIONAL', converted_type: 'DECIMAL', precision: 38, scale: 10 };
const DECIMAL_INT: SchemaElement = { name: 'p', type: 'INT32', repetition_type: 'OPTIONAL', converted_type: 'DECIMAL', precision: 5, scale: 2 };

const stats = (min: unknown, max: unknown, nulls = 0n): Statistics => ({ min_value: min, max_value: max, null_count: nulls }) as Statistics;
const trust = (createdBy: string, element: SchemaElement, s: Statistics, rows = 100) => statisticsTrust(s, element, parseCreatedBy(createdBy), rows);

describe('parsing created_by into writer and version', () => {
  it.each([
    ['parquet-mr version 1.8.0 (build 0fda28af84b9746396014ad6a415b90592a98b3b)', 'parquet-mr', [1, 8, 0]],
    ['parquet-mr version 1.12.0-SNAPSHOT (build 6901a2040848c6b37fa61f4b0a76246445f396db)', 'parquet-mr', [1, 12, 0]],
    ['parquet-cpp-arrow version 14.0.2', 'parquet-cpp-arrow', [14, 0, 2]],
    ['parquet-cpp version 1.5.1-SNAPSHOT', 'parquet-cpp', [1, 5, 1]],
    ['parquet-rs version 59.3.0', 'parquet-rs', [59, 3, 0]],
    ['DuckDB version v1.5.6 (build 069cc9f9b5)', 'duckdb', [1, 5, 6]],
    ['impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)', 'impala', [1, 3, 0]],
    ['Polars', 'polars', undefined],
    ['hyparquet', 'hyparquet', undefined],
    ['@dsnp/parquetjs', '@dsnp/parquetjs', undefined],
    ['parquet-mr', 'parquet-mr', undefined],
    [CREATED_BY, 'contract-gate', undefined],
    ['', '', undefined],
  ])('reads %j as %s %j', (createdBy, application, version) => {
    expect(parseCreatedBy(createdBy)).toEqual(version ? { application, version } : { application });
  });
});

describe('the order a column\'s statistics are in', () => {
  it.each([
    [INT64, 'signed-int'], [TIMESTAMP, 'temporal'], [UINT32, 'unsigned-int'], [UINT8, 'unsigned-int'],
    [DECIMAL_FIXED, 'decimal-fixed'], [DECIMAL_INT, 'decimal-int'],
    [{ name: 'b', type: 'BYTE_ARRAY', converted_type: 'DECIMAL', precision: 9, scale: 0 } as SchemaElement, 'decimal-binary'],
    [{ name: 's', type: 'BYTE_ARRAY', converted_type: 'UTF8' } as SchemaElement, 'bytes'],
    [{ name: 'i', type: 'INT96' } as SchemaElement, 'unordered'],
  ] as const)('%j is %s', (element, kind) => {
    expect(statisticKind(element)).toBe(kind);
  });
});

describe('statistics trusted only where proven', () => {
  it('believes DuckDB, parquet-rs, Arrow C++ 4+, parquet-mr 1.10+ and our own rewrites for integers, timestamps, unsigned and decimals', () => {
    for (const writer of ['DuckDB version v1.5.6 (build 069cc9f9b5)', 'parquet-rs version 59.3.0', 'parquet-cpp-arrow version 14.0.2', 'parquet-mr version 1.13.1 (build db41831)', CREATED_BY]) {
      for (const [element, s] of [[INT64, stats(-5n, 9_000_000_000_000n)], [TIMESTAMP, stats(1.7e12, 1.8e12)], [UINT32, stats(1, 4_000_000_000)], [DECIMAL_FIXED, stats(-2.25, 1.5)]] as const) {
        expect(trust(writer, element, s), `${writer} ${element.name}`).toEqual({ bounds: true, nullCount: true });
      }
    }
  });

  it('never believes parquetjs, whose bounds order numbers given as text as text', () => {
    for (const writer of ['@dsnp/parquetjs', 'parquet.js', 'parquets']) {
      expect(trust(writer, INT64, stats(0n, 999_995_000n))).toMatchObject({ bounds: false, nullCount: false });
      expect(trust(writer, TIMESTAMP, stats(1.7e12, 1.8e12))).toMatchObject({ bounds: false, nullCount: false });
    }
  });

  it('decodes the chunks of a writer it does not know, or of a file that names none', () => {
    expect(trust('impala version 1.3.0-INTERNAL (build 8a48)', INT64, stats(1n, 2n))).toMatchObject({ bounds: false, nullCount: false, reason: expect.stringContaining('"impala"') });
    expect(trust('', INT64, stats(1n, 2n))).toMatchObject({ bounds: false, nullCount: false, reason: expect.stringContaining('names no writer') });
  });

  it('drops binary and decimal-byte bounds of parquet-mr before 1.8.0 (PARQUET-251), and of a parquet-mr that states no version', () => {
    expect(trust('parquet-mr version 1.7.0 (build x)', DECIMAL_FIXED, stats(-1, 1))).toMatchObject({ bounds: false, nullCount: true, reason: expect.stringContaining('PARQUET-251') });
    expect(trust('parquet-mr', DECIMAL_FIXED, stats(-1, 1))).toMatchObject({ bounds: false, nullCount: true });
    expect(trust('parquet-mr version 1.7.0 (build x)', INT64, stats(-1n, 1n))).toEqual({ bounds: true, nullCount: true });
  });

  it('drops unsigned bounds of parquet-mr before 1.10.0 and parquet-cpp before 1.3.0 unless min equals max (PARQUET-686)', () => {
    expect(trust('parquet-mr version 1.8.2 (build x)', UINT32, stats(1, 4_000_000_000))).toMatchObject({ bounds: false, reason: expect.stringContaining('PARQUET-686') });
    expect(trust('parquet-cpp version 1.2.0', UINT32, stats(1, 4_000_000_000))).toMatchObject({ bounds: false, reason: expect.stringContaining('PARQUET-686') });
    expect(trust('parquet-mr version 1.8.2 (build x)', UINT32, stats(7, 7))).toEqual({ bounds: true, nullCount: true });
    expect(trust('parquet-cpp version 1.3.0', UINT32, stats(1, 4_000_000_000))).toEqual({ bounds: true, nullCount: true });
  });

  it('drops decimal-byte bounds of Arrow C++ before 4.0 and of parquet-rs before 14 (PARQUET-1655, arrow-rs#1532)', () => {
    expect(trust('parquet-cpp version 1.5.1-SNAPSHOT', DECIMAL_FIXED, stats(-1, 1))).toMatchObject({ bounds: false, reason: expect.stringContaining('PARQUET-1655') });
    expect(trust('parquet-rs version 9.0.0', DECIMAL_FIXED, stats(-1, 1))).toMatchObject({ bounds: false, reason: expect.stringContaining('arrow-rs#1532') });
    expect(trust('parquet-rs version 9.0.0', INT64, stats(-1n, 1n))).toEqual({ bounds: true, nullCount: true });
  });

  it('keeps Polars\' null counts but not its bounds, which no version dates', () => {
    expect(trust('Polars', INT64, stats(1n, 2n))).toMatchObject({ bounds: false, nullCount: true, reason: expect.stringContaining('polars#7842') });
  });

  it('believes hyparquet-writer for signed integers and timestamps only', () => {
    expect(trust('hyparquet', INT64, stats(1n, 2n))).toEqual({ bounds: true, nullCount: true });
    expect(trust('hyparquet', TIMESTAMP, stats(1, 2))).toEqual({ bounds: true, nullCount: true });
    expect(trust('hyparquet', DECIMAL_INT, stats(1, 2))).toMatchObject({ bounds: false, nullCount: true, reason: expect.stringContaining('hyparquet-writer#38') });
    expect(trust('hyparquet', UINT32, stats(1, 2))).toMatchObject({ bounds: false, nullCount: true });
  });
});

describe('statistics sane for their row group and type', () => {
  const duckdb = 'DuckDB version v1.5.6 (build 069cc9f9b5)';

  it('drops bounds whose min is above their max, in the column\'s own order', () => {
    expect(trust(duckdb, INT64, stats(4_000_000_000n, 1n))).toMatchObject({ bounds: false, nullCount: true, reason: 'min 4000000000 is above max 1' });
    // Read unsigned, a signed-order writer's bounds over values on both sides of 2^31 come out reversed.
    expect(trust(duckdb, UINT32, stats(4_000_000_000, 5))).toMatchObject({ bounds: false, reason: expect.stringContaining('above max') });
    expect(trust(duckdb, DECIMAL_FIXED, stats(1000000.0000000002, 1000000))).toMatchObject({ bounds: false });
  });

  it('drops everything when null_count or distinct_count cannot be right for the row group', () => {
    expect(trust(duckdb, INT64, stats(1n, 2n, 101n))).toMatchObject({ bounds: false, nullCount: false, reason: expect.stringContaining('null_count 101') });
    expect(trust(duckdb, INT64, stats(1n, 2n, -1n))).toMatchObject({ bounds: false, nullCount: false });
    expect(trust(duckdb, INT64, { ...stats(1n, 2n, 10n), distinct_count: 91n })).toMatchObject({ bounds: false, nullCount: false, reason: expect.stringContaining('distinct_count 91') });
    expect(trust(duckdb, INT64, { ...stats(1n, 2n, 10n), distinct_count: 90n })).toEqual({ bounds: true, nullCount: true });
  });

  it('drops bounds of a chunk whose values are all null', () => {
    expect(trust(duckdb, INT64, stats(1n, 2n, 100n))).toMatchObject({ bounds: false, nullCount: true });
  });

  it('drops bounds that do not fit the annotated width or the decimal\'s precision', () => {
    expect(trust(duckdb, UINT8, stats(0, 256))).toMatchObject({ bounds: false, reason: 'bound 256 does not fit UINT_8' });
    expect(trust(duckdb, UINT8, stats(0, 255))).toEqual({ bounds: true, nullCount: true });
    expect(trust(duckdb, DECIMAL_INT, stats(-999.99, 1000.5))).toMatchObject({ bounds: false, reason: 'bound 1000.5 does not fit DECIMAL(5,2)' });
  });
});

describe('what reaches the checks', () => {
  it('keeps the null count and drops the bounds when only the bounds are doubted', () => {
    expect(trustedStatistics(stats(1n, 2n, 3n), INT64, parseCreatedBy('Polars'), 100)).toEqual({ null_count: 3n, distinct_count: undefined });
  });

  it('passes nothing on when nothing is believed, and the statistics unchanged when all is', () => {
    const s = stats(1n, 2n, 3n);
    expect(trustedStatistics(s, INT64, parseCreatedBy('@dsnp/parquetjs'), 100)).toBeUndefined();
    expect(trustedStatistics(s, INT64, parseCreatedBy('parquet-rs version 59.3.0'), 100)).toBe(s);
  });
});
