import { join } from 'node:path';
import { lineitemExpected, LINEITEM } from './lineitem-data.js';
import { CLEAN_ORDERS, EXPECTED, FRIENDLY_ORDERS, ROW_GROUP } from './orders-data.js';
import { spreadOrdersExpected, SPREAD_ORDERS } from './orders-spread.js';
import { nullsExpected, NULLS_ORDERS } from './nulls-data.js';
import type { TableSpec } from './table-spec.js';
import { uuidExpected, UUID_EVENTS } from './uuid-data.js';
import { WIDE_CONTRACT } from './wide-contract.js';
import { wideExpected, WIDE_TABLE } from './wide-data.js';
import type { CommonViolation } from './violation-set.js';

/**
 * The partitions `npm run bench` measures: the one the engine was tuned on (violations in two row
 * groups), and shapes it was not built for (issue 14): violations in every row group, no
 * statistics, PLAIN UUID strings, nulls, many files, CSV, files DuckDB wrote (each codec, page
 * version and row-group layout), a lineitem-like table, a wide table, and files uploaded twice.
 * Each names its contract, how it is generated and what it must fail with. A shape with
 * `optIn` runs only when BENCH_SHAPES names it (or is `all`), keeping the default list's time down.
 */
export type Build =
  /** Written by hyparquet-writer, a row group at a time: `files` files of consecutive rows. */
  | { readonly kind: 'hyparquet'; readonly table: TableSpec; readonly files: number; readonly rowGroup: number; readonly statistics: boolean }
  /** Shape `from`'s rows rewritten by DuckDB's COPY with these options. */
  | { readonly kind: 'duckdb-parquet'; readonly from: string; readonly options: string }
  | { readonly kind: 'duckdb-csv'; readonly from: string }
  /** One hyparquet-writer file of `rows / 2` rows, copied under a second name. */
  | { readonly kind: 'twice'; readonly table: TableSpec; readonly rowGroup: number };

export interface Shape {
  readonly id: string;
  readonly label: string;
  readonly rows: number;
  readonly contract: string;
  readonly format: 'parquet' | 'csv';
  readonly build: Build;
  readonly expected: readonly CommonViolation[];
  /** A wall-time target of its own, in seconds (reported, not enforced). */
  readonly wallTargetS?: number;
  /** Left out of the default list: measured only when named. */
  readonly optIn?: boolean;
}

const contract = (name: string) => join('bench', 'contracts', name);
const ORDERS = contract('orders-bench.v1.yaml');
const M = 1_000_000;

function hyparquet(table: TableSpec, files = 1, statistics = true, rowGroup = ROW_GROUP): Build {
  return { kind: 'hyparquet', table, files, rowGroup, statistics };
}

/** Another spread orders shape's rows (spread-5m, spread-2m) rewritten by DuckDB's COPY with `options`. */
function duckdbWritten(id: string, label: string, from: { id: string; rows: number }, options: string, optIn = false): Shape {
  const { rows } = from;
  return {
    id, label, rows, contract: ORDERS, format: 'parquet', build: { kind: 'duckdb-parquet', from: from.id, options }, expected: spreadOrdersExpected(rows),
    ...(optIn ? { optIn } : {}),
  };
}

const SPREAD_5M = { id: 'spread-5m', rows: 5 * M };
const SPREAD_2M = { id: 'spread-2m', rows: 2 * M };
const LINEITEM_CONTRACT = contract('lineitem-bench.v1.yaml');

function twice(id: string, label: string, fileRows: number, extra: readonly CommonViolation[], wallTargetS?: number): Shape {
  return {
    id, label, rows: 2 * fileRows, contract: contract('orders-dup-bench.v1.yaml'), format: 'parquet', build: { kind: 'twice', table: CLEAN_ORDERS, rowGroup: ROW_GROUP },
    expected: [{ rule: 'grain', column: null, count: fileRows }, ...extra], ...(wallTargetS === undefined ? {} : { wallTargetS }),
  };
}

export const SHAPES: readonly Shape[] = [
  { id: 'friendly-5m', label: 'friendly: violations in 2 row groups, 1 file', rows: 5 * M, contract: ORDERS, format: 'parquet', build: hyparquet(FRIENDLY_ORDERS), expected: EXPECTED },
  { id: 'spread-5m', label: 'spread: violations in every row group, 1 file', rows: 5 * M, contract: ORDERS, format: 'parquet', build: hyparquet(SPREAD_ORDERS), expected: spreadOrdersExpected(5 * M) },
  { id: 'spread-2m', label: 'spread, 1 file', rows: 2 * M, contract: ORDERS, format: 'parquet', build: hyparquet(SPREAD_ORDERS), expected: spreadOrdersExpected(2 * M) },
  { id: 'nostats-2m', label: 'spread, no statistics', rows: 2 * M, contract: ORDERS, format: 'parquet', build: hyparquet(SPREAD_ORDERS, 1, false), expected: spreadOrdersExpected(2 * M) },
  { id: 'uuid-3m', label: 'UUID grain, PLAIN strings, pattern', rows: 3 * M, contract: contract('uuid-bench.v1.yaml'), format: 'parquet', build: hyparquet(UUID_EVENTS), expected: uuidExpected(3 * M) },
  { id: 'nulls-2m', label: '40 % nulls in optional columns', rows: 2 * M, contract: contract('nulls-bench.v1.yaml'), format: 'parquet', build: hyparquet(NULLS_ORDERS), expected: nullsExpected(2 * M) },
  { id: 'files20-5m', label: 'spread, 20 files, duplicates across files', rows: 5 * M, contract: ORDERS, format: 'parquet', build: hyparquet(SPREAD_ORDERS, 20), expected: spreadOrdersExpected(5 * M) },
  { id: 'csv-2m', label: 'spread, CSV (DuckDB COPY)', rows: 2 * M, contract: contract('orders-csv-bench.v1.yaml'), format: 'csv', build: { kind: 'duckdb-csv', from: 'spread-2m' }, expected: [...spreadOrdersExpected(2 * M), { rule: 'max_rows', column: null, count: 1 }] },
  duckdbWritten('duckdb-default-5m', 'spread, DuckDB COPY defaults', SPREAD_5M, 'FORMAT parquet', true),
  duckdbWritten('duckdb-one-group-5m', 'spread, DuckDB, 1 row group', SPREAD_5M, `FORMAT parquet, ROW_GROUP_SIZE ${5 * M}`, true),
  duckdbWritten('duckdb-v2-5m', 'spread, DuckDB, Parquet v2 pages', SPREAD_5M, 'FORMAT parquet, PARQUET_VERSION v2', true),
  // Orders 2M as DuckDB writes it: its defaults (snappy, v1 pages, 122,880-row groups), then one option changed each.
  duckdbWritten('duckdb-snappy-2m', 'spread, DuckDB COPY defaults (snappy)', SPREAD_2M, 'FORMAT parquet'),
  duckdbWritten('duckdb-zstd-2m', 'spread, DuckDB, zstd', SPREAD_2M, 'FORMAT parquet, COMPRESSION zstd'),
  duckdbWritten('duckdb-gzip-2m', 'spread, DuckDB, gzip', SPREAD_2M, 'FORMAT parquet, COMPRESSION gzip'),
  duckdbWritten('duckdb-uncompressed-2m', 'spread, DuckDB, uncompressed', SPREAD_2M, 'FORMAT parquet, COMPRESSION uncompressed'),
  duckdbWritten('duckdb-v2-2m', 'spread, DuckDB, Parquet v2 pages', SPREAD_2M, 'FORMAT parquet, PARQUET_VERSION v2'),
  duckdbWritten('duckdb-small-groups-2m', 'spread, DuckDB, 20,000-row groups', SPREAD_2M, 'FORMAT parquet, ROW_GROUP_SIZE 20000'),
  duckdbWritten('duckdb-one-group-2m', 'spread, DuckDB, 1 row group', SPREAD_2M, `FORMAT parquet, ROW_GROUP_SIZE ${2 * M}`),
  duckdbWritten('duckdb-nodict-2m', 'spread, DuckDB, no dictionary', SPREAD_2M, 'FORMAT parquet, DICTIONARY_SIZE_LIMIT 0'),
  {
    id: 'lineitem-hyparquet-6m', label: 'lineitem-like, hyparquet-writer', rows: 6 * M, contract: LINEITEM_CONTRACT, format: 'parquet',
    build: hyparquet(LINEITEM), expected: lineitemExpected(6 * M), optIn: true,
  },
  {
    id: 'lineitem-6m', label: 'lineitem-like: composite grain, decimals, dates, DuckDB COPY defaults', rows: 6 * M, contract: LINEITEM_CONTRACT, format: 'parquet',
    build: { kind: 'duckdb-parquet', from: 'lineitem-hyparquet-6m', options: 'FORMAT parquet' }, expected: lineitemExpected(6 * M),
  },
  { id: 'wide-1m', label: 'wide: 80 columns, rules on all', rows: M, contract: WIDE_CONTRACT, format: 'parquet', build: hyparquet(WIDE_TABLE, 1, true, 125_000), expected: wideExpected(M) },
  twice('dup-20k', 'one 20k-row file twice', 20_000, [{ rule: 'min_rows', column: null, count: 1 }], 2),
  twice('dup-1m', 'one 1M-row file twice', M, []),
];

/** What `npm run bench` measures when BENCH_SHAPES is not set. */
export const DEFAULT_SHAPES: readonly Shape[] = SHAPES.filter((s) => !s.optIn);

export function shapeById(id: string): Shape {
  const shape = SHAPES.find((s) => s.id === id);
  if (!shape) throw new Error(`no bench shape "${id}"; shapes: ${SHAPES.map((s) => s.id).join(', ')}`);
  return shape;
}

/** The shape another is rewritten from, if any: it must be generated first. */
export function sourceShape(shape: Shape): Shape | undefined {
  return shape.build.kind === 'duckdb-parquet' || shape.build.kind === 'duckdb-csv' ? shapeById(shape.build.from) : undefined;
}
