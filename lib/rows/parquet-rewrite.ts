import type { SchemaElement } from 'hyparquet';
import { ParquetWriter } from 'hyparquet-writer';
import type { ByteSource } from '../formats/byte-source.js';
import { COMPRESSORS } from './parquet-codecs.js';
import { finishParquet } from './parquet-finish.js';
import { boundFloats, detachBounds } from './parquet-chunk-statistics.js';
import { keptValues, readGroupValues } from './parquet-group-read.js';
import { CARRIED_AS_BYTES, type LeafPlan } from './parquet-leaves.js';
import type { ParquetPlan } from './parquet-plan.js';
import type { ChunkSettings } from './parquet-settings.js';
import { PartChunks } from './part-chunks.js';
import { PartWriter } from './part-writer.js';

/** hyparquet-writer types its schema with its own copy of hyparquet (1.31); the shapes are the same. */
export type WriterSchema = ParquetWriter['schema'];

/** Says who wrote the file without naming a writer whose bugs readers work around by version. */
export const CREATED_BY = 'contract-gate (hyparquet-writer 0.17.0)';

/**
 * The file without the rows at `rows` (ascending), one row group per source group that keeps a
 * row, streamed: a group is read, filtered and written before the next is read, and its bytes
 * leave as parts as soon as a part is full.
 */
export async function* rewriteParquet(source: ByteSource, plan: ParquetPlan, settings: readonly ChunkSettings[][], rows: readonly number[], partBytes: number): AsyncGenerator<Uint8Array> {
  const parts = new PartChunks(partBytes);
  const writer = new ParquetWriter({
    writer: new PartWriter(parts), schema: plan.writeSchema as WriterSchema, compressors: COMPRESSORS,
    ...(plan.metadata.key_value_metadata ? { kvMetadata: plan.metadata.key_value_metadata } : {}),
    createdBy: CREATED_BY,
  });
  let next = 0;
  for (let group = 0; group < plan.metadata.row_groups.length; group++) {
    const start = plan.groupStarts[group]!;
    const count = Number(plan.metadata.row_groups[group]!.num_rows);
    const first = next;
    while (next < rows.length && rows[next]! < start + count) next++;
    const kept = keptIndexes(count, rows.slice(first, next), start);
    if (kept?.length === 0 || count === 0) continue;
    const values = await readGroupValues(source, plan, group);
    const columnData = plan.columns.map((column, c) => ({
      name: column.name, data: keptValues(values.get(column.name)!, kept, column.prepare) as unknown[], ...settings[group]![c]!,
    }));
    await writer.write({ columnData, rowGroupSize: kept?.length ?? count });
    boundFloats(writer, plan.columns, columnData.map((c) => c.data));
    detachBounds(writer);
    const sorting = plan.metadata.row_groups[group]!.sorting_columns;
    // Taking rows out keeps the rest in order.
    if (sorting) writer.row_groups.at(-1)!.sorting_columns = sorting;
    yield* parts.takeFull();
  }
  restoreSchema(writer, plan.metadata.schema, plan.columns.flatMap((c) => c.leaves));
  await finishParquet(writer);
  yield* parts.takeRest();
}

/** Indexes within a group of the rows it keeps; undefined when it keeps them all. */
export function keptIndexes(count: number, withheld: readonly number[], start: number): Int32Array | undefined {
  if (withheld.length === 0) return undefined;
  const kept = new Int32Array(count - withheld.length);
  let w = 0;
  let k = 0;
  for (let i = 0; i < count; i++) {
    if (withheld[w] === start + i) w++;
    else kept[k++] = i;
  }
  return kept;
}

/**
 * The footer states the source's schema, not the plain elements some leaves were written
 * through: their bytes are the same, so only the description changes back (the physical type
 * too, for the types carried as bytes: INT96 and floats).
 */
export function restoreSchema(writer: ParquetWriter, schema: readonly SchemaElement[], leaves: readonly LeafPlan[]): void {
  writer.schema = schema as WriterSchema;
  const types = new Map(leaves.filter((leaf) => CARRIED_AS_BYTES[leaf.element.type!] !== undefined).map((leaf) => [leaf.path.join('\u0000'), leaf.element.type!]));
  if (types.size === 0) return;
  for (const group of writer.row_groups) {
    for (const chunk of group.columns) {
      const type = chunk.meta_data && types.get(chunk.meta_data.path_in_schema.join('\u0000'));
      if (type) chunk.meta_data!.type = type;
    }
  }
}
