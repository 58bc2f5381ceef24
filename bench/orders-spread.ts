import { ORDERS_SCHEMA, orderId, ordersBase } from './orders-data.js';
import { applyPlants, duplicateSource, plantsExpected, type SpreadPlant } from './spread-plants.js';
import type { TableSpec } from './table-spec.js';
import type { CommonViolation } from './violation-set.js';

/** The orders rows with every rule of the contract failing in every row group (spread-plants.ts). */
const SPREAD: readonly SpreadPlant[] = [
  { rule: 'required', column: 'customer_id', offset: 101, value: () => null },
  { rule: 'required', column: 'amount', offset: 2203, value: () => null },
  { rule: 'required', column: 'ordered_at', offset: 3307, value: () => null },
  { rule: 'enum', column: 'status', offset: 4409, value: () => 'pending' },
  { rule: 'min', column: 'amount', offset: 5511, value: (row) => -((row % 997) + 1) / 100 },
  { rule: 'grain', column: 'order_id', offset: 7707, value: (row, rows) => orderId(duplicateSource(row, rows)) },
];

export const SPREAD_ORDERS: TableSpec = {
  version: 'orders6-spread-v1',
  schema: ORDERS_SCHEMA,
  chunk: (first, end, rows) => applyPlants(ordersBase(first, end), SPREAD, first, end, rows),
};

export function spreadOrdersExpected(rows: number): CommonViolation[] {
  return plantsExpected(SPREAD, rows);
}
