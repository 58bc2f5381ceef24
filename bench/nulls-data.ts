import { DAY_START_MS, orderId } from './orders-data.js';
import { applyPlants, duplicateSource, mix32, plantsExpected, type SpreadPlant } from './spread-plants.js';
import { decimal, INT64, optional, STRING, TIMESTAMP, type TableChunk, type TableSpec } from './table-spec.js';
import type { CommonViolation } from './violation-set.js';

/**
 * Orders whose optional columns are 40 % null, scattered row by row (contract: nulls-bench.v1.yaml):
 * definition levels on every page, and enum, min, max and pattern that must skip the nulls and
 * still fail the planted non-null values. The contract's freshness window is shorter than the
 * data's lag, so freshness fails too.
 */
const NULL_PERCENT = 40;
const OPTIONAL = ['customer_id', 'status', 'amount', 'coupon', 'shipped_at'] as const;
const STATUSES = ['placed', 'paid', 'cancelled'] as const;
const MICROS_PER_MS = 1000;
const NOV_1_MS = Date.parse('2026-11-01T00:00:00Z');

/** Planted values are never null, whatever the row's null draw was. */
const PLANTS: readonly SpreadPlant[] = [
  { rule: 'min', column: 'customer_id', offset: 1101, value: () => 0n },
  { rule: 'enum', column: 'status', offset: 2201, value: () => 'pending' },
  { rule: 'max', column: 'amount', offset: 3301, value: () => 1000.01 },
  { rule: 'min', column: 'amount', offset: 4401, value: () => -0.01 },
  { rule: 'pattern', column: 'coupon', offset: 5501, value: (row) => `c${String(row % 1_000_000).padStart(6, '0')}` },
  { rule: 'min', column: 'shipped_at', offset: 6601, value: () => (NOV_1_MS - 3_600_000) * MICROS_PER_MS },
  { rule: 'grain', column: 'order_id', offset: 7707, value: (row, rows) => orderId(duplicateSource(row, rows)) },
];

function value(column: (typeof OPTIONAL)[number], n: number): unknown {
  const h = mix32(n, 31);
  switch (column) {
    case 'customer_id': return BigInt(1 + (h % 250_000));
    case 'status': return STATUSES[h % STATUSES.length]!;
    case 'amount': return (h % 100_001) / 100;
    case 'coupon': return `C${String(h % 1_000_000).padStart(6, '0')}`;
    case 'shipped_at': return (NOV_1_MS + (h % (28 * 86_400)) * 1000) * MICROS_PER_MS;
  }
}

function base(first: number, end: number): TableChunk {
  const chunk: TableChunk = { order_id: [], customer_id: [], status: [], amount: [], coupon: [], shipped_at: [], updated_at: [] };
  for (let n = first; n < end; n++) {
    chunk.order_id!.push(orderId(n));
    for (const [index, column] of OPTIONAL.entries()) {
      chunk[column]!.push(mix32(n, 100 + index) % 100 < NULL_PERCENT ? null : value(column, n));
    }
    chunk.updated_at!.push((DAY_START_MS + ((n * 7919) % 68_400) * 1000) * MICROS_PER_MS);
  }
  return chunk;
}

export const NULLS_ORDERS: TableSpec = {
  version: 'nulls7-v2',
  schema: [
    { name: 'root', num_children: 7 },
    optional('order_id', STRING),
    optional('customer_id', INT64),
    optional('status', STRING),
    optional('amount', decimal(12, 2)),
    optional('coupon', STRING),
    optional('shipped_at', TIMESTAMP),
    optional('updated_at', TIMESTAMP),
  ],
  chunk: (first, end, rows) => applyPlants(base(first, end), PLANTS, first, end, rows),
};

/** The planted values, and freshness: the newest updated_at is 19:00, about 5 hours before the day was due; the contract allows 4. */
export function nullsExpected(rows: number): CommonViolation[] {
  return [...plantsExpected(PLANTS, rows), { rule: 'freshness', column: 'updated_at', count: 1 }];
}
