import type { ColumnChunk, FileMetaData, SchemaElement } from 'hyparquet';
import { MAX_GROUP_ROWS, MAX_SCHEMA_DEPTH } from './parquet-limits.js';
import { UnreadableError } from './table-file.js';

/**
 * Sanity of a parsed footer, before anything is read by it: the schema forms a tree of bounded
 * depth, row counts are whole and under the per-group cap, and every column chunk lies inside the
 * file's data. hyparquet trusts all of these and allocates or loops by them. The file's own
 * num_rows must be the groups' sum, as DuckDB and arrow hold it: readers size by either.
 */
export function checkFooter(metadata: FileMetaData, dataEnd: number): void {
  checkSchema(metadata.schema);
  let rows = 0;
  metadata.row_groups.forEach((group, index) => {
    const groupRows = Number(group.num_rows);
    if (!Number.isSafeInteger(groupRows) || groupRows < 0 || groupRows > MAX_GROUP_ROWS) {
      throw invalid(`row group ${index} declares ${group.num_rows} rows; a row group may hold 0 to ${MAX_GROUP_ROWS.toLocaleString('en-US')} (64 Mi) rows`);
    }
    rows += groupRows;
    // hyparquet never reads an empty group's chunks, so neither do their offsets matter.
    if (groupRows > 0) (group.columns ?? []).forEach((chunk) => checkChunk(chunk, index, dataEnd));
  });
  if (String(metadata.num_rows) !== String(rows)) {
    throw invalid(`its num_rows says the file holds ${metadata.num_rows} rows, but its ${metadata.row_groups.length} row groups hold ${rows}; write the file again (a writer that lies here may lie elsewhere)`);
  }
}

/**
 * Walks the flat schema list as hyparquet's tree builder will, without recursion: each group's
 * children must exist, and nesting stays under the depth limit.
 */
function checkSchema(schema: readonly SchemaElement[]): void {
  if (!Array.isArray(schema) || schema.length === 0) throw invalid('it has no schema');
  const open = [childCount(schema[0]!, 0)];
  let next = 1;
  while (open.length > 0) {
    if (open[open.length - 1] === 0) {
      open.pop();
      continue;
    }
    open[open.length - 1]! -= 1;
    const element = schema[next];
    if (!element) throw invalid(`its schema ends after ${next} elements, but its groups claim more children`);
    const children = childCount(element, next++);
    if (children > 0) open.push(children);
    if (open.length > MAX_SCHEMA_DEPTH) throw invalid(`its schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
  }
}

function childCount(element: SchemaElement, index: number): number {
  const children = element.num_children ?? 0;
  if (!Number.isInteger(children) || children < 0) throw invalid(`schema element ${index} claims ${children} children`);
  return children;
}

/** A chunk's bytes, as hyparquet will locate them, must lie between the leading magic and the footer. */
function checkChunk(chunk: ColumnChunk, group: number, dataEnd: number): void {
  const meta = chunk.meta_data;
  if (!meta) return; // hyparquet reports a chunk without metadata if it is ever read
  const name = (meta.path_in_schema ?? []).join('.');
  const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
  const size = Number(meta.total_compressed_size);
  const first = Number(meta.data_page_offset);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(size) || start < 4 || size < 0 || start + size > dataEnd || !(first >= start && first <= start + size)) {
    throw invalid(`row group ${group} column "${name}" says its data is at bytes ${start} to ${start + size} (first page at ${first}), but the file's data lies within bytes 4 to ${dataEnd}`);
  }
}

function invalid(detail: string): UnreadableError {
  return new UnreadableError(`the Parquet footer is inconsistent: ${detail}`);
}
