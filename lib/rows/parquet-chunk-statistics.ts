import type { ParquetWriter } from 'hyparquet-writer';
import type { ColumnPlan } from './parquet-plan.js';

/**
 * Byte bounds the writer keeps for the footer are views of the values, and so of the whole
 * decoded column chunk they were read from: held to the end, every group's chunks would stay in
 * memory. They are copied out after each group (they are cut to 16 bytes in the footer anyway).
 */
export function detachBounds(writer: ParquetWriter): void {
  for (const chunk of writer.row_groups.at(-1)?.columns ?? []) {
    const stats = chunk.meta_data?.statistics;
    if (!stats) continue;
    for (const key of ['min_value', 'max_value', 'min', 'max'] as const) {
      const value = stats[key];
      if (value instanceof Uint8Array) stats[key] = value.slice();
    }
  }
}

/**
 * Float columns go through the writer as their bytes, so the writer's bounds are byte order, not
 * numeric order: after each row group, a flat float column's chunk gets the bounds of its
 * values as the format defines them (NaN left out and counted, -0 as the lower bound of a zero
 * and +0 as the upper, as hyparquet-writer itself does for numbers).
 */
export function boundFloats(writer: ParquetWriter, columns: readonly ColumnPlan[], data: readonly ArrayLike<unknown>[]): void {
  const group = writer.row_groups.at(-1);
  if (!group) return;
  columns.forEach((column, c) => {
    const leaf = column.leaves[0];
    if (!leaf?.floatBounds) return;
    const chunk = group.columns.find((chunk) => chunk.meta_data?.path_in_schema.join('\u0000') === leaf.path.join('\u0000'));
    const stats = chunk?.meta_data?.statistics;
    if (stats) chunk.meta_data!.statistics = { null_count: stats.null_count, ...floatBounds(data[c]!, leaf.element.type === 'FLOAT') };
  });
}

export function floatBounds(values: ArrayLike<unknown>, single: boolean): { min_value?: number; max_value?: number; nan_count: bigint } {
  let min: number | undefined;
  let max: number | undefined;
  let nans = 0n;
  for (let i = 0; i < values.length; i++) {
    const bytes = values[i] as Uint8Array | null | undefined;
    if (!bytes) continue;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const value = single ? view.getFloat32(0, true) : view.getFloat64(0, true);
    if (Number.isNaN(value)) nans++;
    else {
      if (min === undefined || value < min) min = value;
      if (max === undefined || value > max) max = value;
    }
  }
  return { ...(min === undefined ? {} : { min_value: min === 0 ? -0 : min }), ...(max === undefined ? {} : { max_value: max === 0 ? 0 : max }), nan_count: nans };
}
