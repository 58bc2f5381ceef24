import { fileURLToPath } from 'node:url';
import type { LogicalTable } from '../writers/index.js';
import { EDGE_TABLES } from './edge-tables.js';
import { ordersTable } from './orders-table.js';
import { wideTable } from './wide-table.js';

/** The check time of every matrix run: a day after the orders partition, before its future rows. */
export const MATRIX_NOW = Date.parse('2026-12-01T05:00:00Z');

export interface MatrixTable {
  readonly label: string;
  readonly contractPath: string;
  readonly table: () => LogicalTable;
}

const contract = (name: string) => fileURLToPath(new URL(`./contracts/${name}.yaml`, import.meta.url));

/**
 * Sizes chosen for several pages per column chunk in every writer and, with the small-group
 * settings, many row groups, while the whole matrix stays within a minute on two cores.
 */
export const MATRIX_TABLES: readonly MatrixTable[] = [
  { label: 'orders', contractPath: contract('orders'), table: memo(() => ordersTable(30_000)) },
  { label: 'wide', contractPath: contract('wide'), table: memo(() => wideTable(10_000)) },
  // A table that keeps every rule: a reader that invents a violation fails the verdict here.
  { label: 'orders-clean', contractPath: contract('orders'), table: memo(() => ordersTable(6_000, { planted: false })) },
  ...EDGE_TABLES.map(({ label, table }) => ({ label: `edge-${label}`, contractPath: contract('edge'), table: () => table })),
];

function memo<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
