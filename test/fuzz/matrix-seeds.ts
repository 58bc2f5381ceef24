import { readFileSync } from 'node:fs';
import { EDGE_TABLES } from '../matrix/edge-tables.js';
import { ordersTable } from '../matrix/orders-table.js';
import { wideTable } from '../matrix/wide-table.js';
import { PARQUET_WRITERS, writeCached, writerVariant, type LogicalTable } from '../writers/index.js';
import type { SeedFile } from './seed-files.js';

/**
 * Seeds written by every writer of the matrix (test/writers), so the fuzzer damages the layouts
 * real producers make (DuckDB's padded runs and whole-group pages, arrow-rs' dictionary
 * fallback, polars' one-group files) and not only hyparquet-writer's. Tables stay at a few
 * thousand rows: 10,000 mutated files must read in minutes on two cores. Files are cached under
 * their own labels, apart from the matrix's larger tables of the same shape.
 */
interface SeedTable {
  readonly label: string;
  readonly table: () => LogicalTable;
}

// Three row groups with the 1,000-row settings of arrow-rs and polars, two with hyparquet-writer's defaults.
const WIDE: SeedTable = { label: 'fuzz-wide', table: memo(() => wideTable(2_500)) };
// DuckDB keeps 2,500 rows in one group whatever ROW_GROUP_SIZE says; 5,000 orders make three (2,048 rows each at most).
const ORDERS: SeedTable = { label: 'fuzz-orders', table: memo(() => ordersTable(5_000)) };
const EXTREMES: SeedTable = { label: 'edge-extremes', table: () => EDGE_TABLES.find((t) => t.label === 'extremes')!.table };

const DEFAULTS = ['duckdb-default', 'arrow-rs-default', 'polars-default', 'hyparquet-default'];

/** Every variant on the wide table (every type, nullable and required), each writer's defaults on the others. */
const FULL: readonly (readonly [SeedTable, string])[] = [
  ...PARQUET_WRITERS.map((variant) => [WIDE, variant.id] as const),
  ...[...DEFAULTS, 'duckdb-small-groups', 'duckdb-v2-zstd-small-groups'].map((id) => [ORDERS, id] as const),
  ...DEFAULTS.map((id) => [EXTREMES, id] as const),
];

/** For `npm test`: every writer, and among them v2 pages, no dictionary, dictionary fallback, small groups. */
const QUICK: readonly (readonly [SeedTable, string])[] = [
  'duckdb-default', 'duckdb-v2-nodict', 'arrow-rs-dict-fallback', 'arrow-rs-v2', 'polars-default', 'polars-small-groups', 'hyparquet-dictionary',
].map((id) => [WIDE, id] as const);

export type SeedSelection = 'full' | 'quick';

/** The writer variant ids a selection seeds from, without writing anything. */
export function matrixSeedVariants(selection: SeedSelection): string[] {
  return (selection === 'full' ? FULL : QUICK).map(([, id]) => id);
}

export async function matrixSeeds(selection: SeedSelection): Promise<SeedFile[]> {
  const seeds: SeedFile[] = [];
  for (const [table, id] of selection === 'full' ? FULL : QUICK) {
    const path = await writeCached(writerVariant(id), table.table(), table.label);
    seeds.push({ name: `${table.label}.${id}`, bytes: new Uint8Array(readFileSync(path)) });
  }
  return seeds;
}

function memo<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
