import { join } from 'node:path';

/**
 * The bench's orders dataset (contract: bench/orders-bench.v1.yaml): six columns, deterministic,
 * with violations planted in a few row groups only, so footer statistics can settle the others.
 * Shared by the generator, the orchestrator and the engines' drivers.
 */
export const DAY = '2026-11-29';
export const PARTITION = `dt=${DAY}`;
/** The check time every engine is given: about five hours after the newest updated_at. */
export const NOW = '2026-11-30T05:00:00Z';
export const CONTRACT = join('bench', 'orders-bench.v1.yaml');
export const COLUMNS = ['order_id', 'customer_id', 'status', 'amount', 'ordered_at', 'updated_at'] as const;
export type Column = (typeof COLUMNS)[number];
export const ROW_GROUP = 250_000;
const FILES_PER_SPLIT = 10;
/** Bump when the generated data changes, so stale files are not reused. */
const DATA_VERSION = 'orders6-v1';

/** One file, ten files, or the one file rewritten by DuckDB as a single row group (as Spark or DuckDB with ROW_GROUP_SIZE write). */
export type Layout = 'one' | 'ten' | 'duckdb-one-group';

/** `bench/data/orders6-v1/rows-5000000/ten/dt=2026-11-29`: the partition directory of one layout. */
export function partitionDir(rows: number, layout: Layout): string {
  return join('bench', 'data', DATA_VERSION, `rows-${rows}`, layout, PARTITION);
}

export function fileName(index: number): string {
  return `part-${String(index).padStart(4, '0')}.parquet`;
}

/** Rows [first, end) of the whole partition that file `index` of a layout holds. */
export function fileRows(rows: number, layout: Layout, index: number): { first: number; end: number } {
  if (layout !== 'ten') return { first: 0, end: rows };
  return { first: Math.floor((index * rows) / FILES_PER_SPLIT), end: Math.floor(((index + 1) * rows) / FILES_PER_SPLIT) };
}

export function fileCount(layout: Layout): number {
  return layout === 'ten' ? FILES_PER_SPLIT : 1;
}

const STATUSES = ['placed', 'paid', 'paid', 'placed', 'cancelled'] as const;
const DAY_START_MS = Date.parse(`${DAY}T00:00:00Z`);

/** An odd multiplier is a bijection modulo 2^32: unique ids that look random (as the test fixture). */
export function orderId(n: number): string {
  return `ord_${(Math.imul(n, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0')}`;
}

export interface Plant {
  readonly row: number;
  readonly column: Column;
  readonly value: unknown;
}

/**
 * Violations at fixed rows, all in row groups 0 and 2 (of 250,000 rows): a 5M-row file has 2 of
 * 20 row groups dirty, a 1M-row file 2 of 4. Values are as the generator writes them
 * (timestamps in microseconds, customer ids as bigint).
 */
export const PLANTS: readonly Plant[] = [
  { row: 1_000, column: 'customer_id', value: null },
  { row: 1_001, column: 'customer_id', value: null },
  { row: 2_000, column: 'status', value: 'pending' },
  { row: 3_000, column: 'ordered_at', value: null },
  { row: 510_000, column: 'amount', value: -3.5 },
  { row: 620_000, column: 'amount', value: -0.01 },
  { row: 700_000, column: 'amount', value: null },
  // The same key as row 123,456: one duplicated grain value.
  { row: 740_000, column: 'order_id', value: orderId(123_456) },
];

/** What every engine must find given PLANTS (for a partition of at least 740,001 rows). */
export const EXPECTED = [
  { rule: 'required', column: 'customer_id', count: 2 },
  { rule: 'required', column: 'amount', count: 1 },
  { rule: 'required', column: 'ordered_at', count: 1 },
  { rule: 'enum', column: 'status', count: 1 },
  { rule: 'min', column: 'amount', count: 2 },
  { rule: 'grain', column: null, count: 1 },
];

export interface OrdersChunk {
  order_id: (string | null)[];
  customer_id: (bigint | null)[];
  status: (string | null)[];
  amount: (number | null)[];
  /** Epoch microseconds. */
  ordered_at: (number | null)[];
  updated_at: (number | null)[];
}

/** Rows [first, end) of the partition, planted violations included. */
export function ordersChunk(first: number, end: number): OrdersChunk {
  const chunk: OrdersChunk = { order_id: [], customer_id: [], status: [], amount: [], ordered_at: [], updated_at: [] };
  for (let n = first; n < end; n++) {
    const orderedMs = DAY_START_MS + ((n * 7919) % 86_000) * 1000;
    chunk.order_id.push(orderId(n));
    chunk.customer_id.push(BigInt(1 + ((n * 104_729) % 250_000)));
    chunk.status.push(STATUSES[n % STATUSES.length]!);
    chunk.amount.push(((n * 3571) % 100_000) / 100);
    chunk.ordered_at.push(orderedMs * 1000);
    chunk.updated_at.push((orderedMs + 300_000) * 1000);
  }
  for (const { row, column, value } of PLANTS) {
    if (row >= first && row < end) (chunk[column] as unknown[])[row - first] = value;
  }
  return chunk;
}

/** A violation reduced to what every engine can say: rule, column, count. */
export interface CommonViolation {
  readonly rule: string;
  readonly column: string | null;
  readonly count: number;
}

function violationKey(v: CommonViolation): string {
  return `${v.rule}:${v.column ?? '-'}=${v.count}`;
}

/** A canonical, order-free rendering of a violation set, for comparing engines. */
export function canonical(violations: readonly CommonViolation[]): string {
  return violations.map(violationKey).sort().join(', ');
}
