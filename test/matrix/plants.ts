import type { ColumnTypeKind } from '../../lib/contract/column-type.js';
import type { LogicalColumn } from '../writers/index.js';

/**
 * `count` rows spread over the whole file (one per equal stretch, at `phase` of it), so a
 * violation lands in every row group and page of any writer, never only in the first.
 */
export function spreadRows(count: number, rows: number, phase: number): number[] {
  return Array.from({ length: count }, (_, k) => Math.min(rows - 1, Math.floor(((k + phase) * rows) / count)));
}

/** Values to put at some rows, over the column's ordinary values. */
export interface Plant {
  readonly rows: readonly number[];
  readonly value: (row: number) => unknown;
}

export function plant(count: number, rows: number, phase: number, value: (row: number) => unknown): Plant {
  return { rows: spreadRows(count, rows, phase), value };
}

export interface ColumnShape {
  readonly name: string;
  readonly type: ColumnTypeKind;
  readonly nullable: boolean;
  readonly precision?: number;
  readonly scale?: number;
}

/** A column of `rows` values from `base`, with every plant applied in order (later ones win). */
export function buildColumn(shape: ColumnShape, rows: number, base: (row: number) => unknown, plants: readonly Plant[] = []): LogicalColumn {
  const values = Array.from({ length: rows }, (_, row) => base(row));
  for (const { rows: at, value } of plants) for (const row of at) values[row] = value(row);
  if (!shape.nullable && values.some((v) => v === null)) throw new Error(`column ${shape.name} is not nullable but holds a null`);
  return { ...shape, values };
}
