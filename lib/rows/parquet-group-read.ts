import { parquetRead, type ColumnData } from 'hyparquet';
import { GateError } from '../errors.js';
import type { ByteSource } from '../formats/byte-source.js';
import { guardedCompressors } from '../formats/guarded-codecs.js';
import { reason } from '../formats/parquet-footer.js';
import { UnreadableError } from '../formats/table-file.js';
import type { ParquetPlan } from './parquet-plan.js';

/**
 * Every column of one row group as stored: read through the plan's plain footer, so no value is
 * converted (no decimal to a float, no text decoded, no timestamp to a Date). A nested column
 * arrives assembled into lists and objects of such values.
 */
export async function readGroupValues(source: ByteSource, plan: ParquetPlan, group: number): Promise<Map<string, ArrayLike<unknown>>> {
  const rowStart = plan.groupStarts[group]!;
  const rowCount = Number(plan.metadata.row_groups[group]!.num_rows);
  const pieces = new Map<string, ColumnData[]>(plan.columns.map((c) => [c.name, []]));
  try {
    await parquetRead({
      file: source, metadata: plan.readMetadata, rowStart, rowEnd: rowStart + rowCount,
      compressors: guardedCompressors(), utf8: false,
      onChunk: (chunk) => pieces.get(chunk.columnName)?.push(chunk),
    });
  } catch (error) {
    if (error instanceof GateError) throw error;
    throw new UnreadableError(`${plan.path}: cannot decode rows ${rowStart}-${rowStart + rowCount - 1}: ${reason(error)}`, { cause: error });
  }
  const values = new Map<string, ArrayLike<unknown>>();
  for (const [name, chunks] of pieces) values.set(name, joined(plan.path, name, chunks, rowStart, rowCount));
  return values;
}

/** The page-sized pieces of one column as one array of exactly the group's rows. */
function joined(path: string, name: string, chunks: readonly ColumnData[], rowStart: number, rowCount: number): ArrayLike<unknown> {
  const only = chunks[0];
  if (chunks.length === 1 && only!.rowStart === rowStart && only!.columnData.length === rowCount) return only!.columnData;
  const out = new Array<unknown>(rowCount);
  let filled = 0;
  for (const chunk of chunks) {
    const from = Math.max(chunk.rowStart, rowStart);
    const to = Math.min(chunk.rowStart + chunk.columnData.length, rowStart + rowCount);
    for (let row = from; row < to; row++) out[row - rowStart] = chunk.columnData[row - chunk.rowStart];
    filled += Math.max(0, to - from);
  }
  if (filled !== rowCount) throw new UnreadableError(`${path}: column "${name}" has ${filled} values in a row group of ${rowCount} rows`);
  return out;
}

/**
 * The values at `kept` (indexes into the group), each prepared for the writer. A typed array
 * stays one of its kind (a float keeps its bits); prepared values go in a plain array.
 */
export function keptValues(values: ArrayLike<unknown>, kept: Int32Array | undefined, prepare: ((value: unknown) => unknown) | undefined): unknown[] | ArrayLike<unknown> {
  if (kept === undefined && prepare === undefined) return values;
  const count = kept?.length ?? values.length;
  const at = (i: number) => (kept === undefined ? i : kept[i]!);
  if (prepare === undefined && ArrayBuffer.isView(values)) {
    const typed = new (values.constructor as new (length: number) => { [i: number]: unknown })(count);
    for (let i = 0; i < count; i++) typed[i] = values[at(i)];
    return typed as ArrayLike<unknown>;
  }
  const out = new Array<unknown>(count);
  for (let i = 0; i < count; i++) {
    const value = values[at(i)];
    out[i] = value === null || value === undefined || prepare === undefined ? value : prepare(value);
  }
  return out;
}
