import { decimal, INT64, optional, STRING, TIMESTAMP, type TableChunk, type TableSpec } from './table-spec.js';
import type { CommonViolation } from './violation-set.js';

/**
 * The bench's orders dataset (contract: bench/contracts/orders-bench.v1.yaml): six columns,
 * deterministic. The friendly variant plants its violations in two row groups only, so footer
 * statistics settle the others; orders-spread.ts plants them everywhere.
 */
export const DAY = '2026-11-29';
export const PARTITION = `dt=${DAY}`;
/** The check time every engine is given: about five hours after the newest updated_at. */
export const NOW = '2026-11-30T05:00:00Z';
export const COLUMNS = ['order_id', 'customer_id', 'status', 'amount', 'ordered_at', 'updated_at'] as const;
export type Column = (typeof COLUMNS)[number];
export const ROW_GROUP = 250_000;

export const ORDERS_SCHEMA = [
  { name: 'root', num_children: COLUMNS.length },
  optional('order_id', STRING),
  optional('customer_id', INT64),
  optional('status', STRING),
  optional('amount', decimal(12, 2)),
  optional('ordered_at', TIMESTAMP),
  optional('updated_at', TIMESTAMP),
];

const STATUSES = ['placed', 'paid', 'paid', 'placed', 'cancelled'] as const;
export const DAY_START_MS = Date.parse(`${DAY}T00:00:00Z`);

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
 * 20 row groups dirty. Values are as the generator writes them (timestamps in microseconds,
 * customer ids as bigint).
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
export const EXPECTED: readonly CommonViolation[] = [
  { rule: 'required', column: 'customer_id', count: 2 },
  { rule: 'required', column: 'amount', count: 1 },
  { rule: 'required', column: 'ordered_at', count: 1 },
  { rule: 'enum', column: 'status', count: 1 },
  { rule: 'min', column: 'amount', count: 2 },
  { rule: 'grain', column: null, count: 1 },
];

/** Row n's order as written: timestamps in epoch microseconds, customer ids as bigint. */
export function ordersBase(first: number, end: number): TableChunk {
  const chunk: TableChunk = { order_id: [], customer_id: [], status: [], amount: [], ordered_at: [], updated_at: [] };
  for (let n = first; n < end; n++) {
    const orderedMs = DAY_START_MS + ((n * 7919) % 86_000) * 1000;
    chunk.order_id!.push(orderId(n));
    chunk.customer_id!.push(BigInt(1 + ((n * 104_729) % 250_000)));
    chunk.status!.push(STATUSES[n % STATUSES.length]!);
    chunk.amount!.push(((n * 3571) % 100_000) / 100);
    chunk.ordered_at!.push(orderedMs * 1000);
    chunk.updated_at!.push((orderedMs + 300_000) * 1000);
  }
  return chunk;
}

/** Today's friendly shape: PLANTS only, in row groups 0 and 2. */
export const FRIENDLY_ORDERS: TableSpec = {
  version: 'orders6-v1',
  schema: ORDERS_SCHEMA,
  chunk: (first, end) => {
    const chunk = ordersBase(first, end);
    for (const { row, column, value } of PLANTS) if (row >= first && row < end) chunk[column]![row - first] = value;
    return chunk;
  },
};

/** No violation at all: the duplicate-file shapes, whose only violations are the copies. */
export const CLEAN_ORDERS: TableSpec = { version: 'orders6-clean-v1', schema: ORDERS_SCHEMA, chunk: (first, end) => ordersBase(first, end) };
