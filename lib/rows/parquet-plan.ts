import type { FileMetaData, SchemaElement, SchemaTree } from 'hyparquet';
import { parquetSchema } from 'hyparquet';
import { isListLike } from 'hyparquet/src/schema.js';
import { CARRIED_AS_BYTES, isUnsigned, leafPlan, plainElement, UncarriedLeaf, WRITABLE_LOGICAL_FIELDS, type LeafPlan } from './parquet-leaves.js';
import type { SourceFooter } from './parquet-source.js';
import { unsupportedFile } from './row-errors.js';

type Prepare = (value: unknown) => unknown;

/** One top-level column: its leaves in chunk order, and how its values go to the writer. */
export interface ColumnPlan {
  readonly name: string;
  readonly leaves: readonly LeafPlan[];
  /** Applied to each value that is not null; undefined when every value goes as it was read. */
  readonly prepare?: Prepare;
}

/** What a rewrite of one Parquet file reads through and writes through. */
export interface ParquetPlan {
  readonly path: string;
  /** The footer as the source states it: its schema and key-value metadata are written back. */
  readonly metadata: FileMetaData;
  /** The footer hyparquet reads with: leaf annotations off, so values arrive as stored. */
  readonly readMetadata: FileMetaData;
  /** The schema hyparquet-writer writes through (leaves it cannot convert back are plain). */
  readonly writeSchema: SchemaElement[];
  readonly columns: readonly ColumnPlan[];
  readonly groupStarts: readonly number[];
  readonly rowCount: number;
}

/**
 * Plans the rewrite of a file, or refuses it (GateError 'unsupported') naming the column and the
 * type that cannot be carried over bit for bit, before a byte is read or written.
 */
export function planParquet(footer: SourceFooter, path: string): ParquetPlan {
  const { metadata } = footer;
  refuseUnknownAnnotations(footer, path);
  const root = parquetSchema(metadata);
  const names = new Set<string>();
  const columns = root.children.map((child) => {
    if (names.has(child.element.name)) throw unsupportedFile(path, child.element.name, 'schema', 'the name is given to two top-level columns');
    names.add(child.element.name);
    return columnPlan(child, path);
  });
  refuseMisreadDeltas(metadata, columns, path);
  const swapped = new Map<SchemaElement, SchemaElement>();
  for (const leaf of columns.flatMap((c) => c.leaves)) if (leaf.writeAs) swapped.set(leaf.element, leaf.writeAs);
  const groupStarts: number[] = [];
  let rowCount = 0;
  for (const group of metadata.row_groups) {
    groupStarts.push(rowCount);
    rowCount += Number(group.num_rows);
  }
  return {
    path, metadata, columns, groupStarts, rowCount,
    readMetadata: readView(metadata),
    writeSchema: metadata.schema.map((element) => swapped.get(element) ?? element),
  };
}

function columnPlan(tree: SchemaTree, path: string): ColumnPlan {
  const leaves: LeafPlan[] = [];
  try {
    const prepare = walk(tree, leaves);
    return { name: tree.element.name, leaves, ...(prepare ? { prepare } : {}) };
  } catch (error) {
    if (error instanceof UncarriedLeaf) throw unsupportedFile(path, error.path ?? tree.path.join('.'), error.type, error.why);
    throw error;
  }
}

/** Collects the subtree's leaves; returns how a value of the subtree is prepared, if it needs it. */
function walk(node: SchemaTree, leaves: LeafPlan[]): Prepare | undefined {
  try {
    return walkNode(node, leaves);
  } catch (error) {
    if (error instanceof UncarriedLeaf) error.path ??= node.path.join('.');
    throw error;
  }
}

function walkNode(node: SchemaTree, leaves: LeafPlan[]): Prepare | undefined {
  const { element } = node;
  if (node.children.length === 0) {
    const leaf = leafPlan(element, node.path, node.path.length > 1);
    leaves.push(leaf);
    return leaf.prepare;
  }
  if (isListLike(node) && node.children[0]!.children.length === 1) {
    const item = walk(node.children[0]!.children[0]!, leaves);
    return item && ((list) => (list as unknown[]).map((v) => (v === null || v === undefined ? v : item(v))));
  }
  const annotation = element.logical_type?.type ?? element.converted_type;
  if (annotation === 'MAP' || annotation === 'MAP_KEY_VALUE') throw new UncarriedLeaf('MAP', 'hyparquet reads a map as an object keyed by text, which loses key types and order');
  if (annotation !== undefined) throw new UncarriedLeaf(`group ${annotation}`, 'only standard three-level LISTs and plain structs are carried');
  if (element.repetition_type === 'REPEATED') throw new UncarriedLeaf('repeated group', 'a repeated group outside a standard LIST is read and written with different shapes');
  const parts = node.children.map((child) => [child.element.name, walk(child, leaves)] as const).filter((part) => part[1] !== undefined);
  if (parts.length === 0) return undefined;
  return (struct) => {
    const out = { ...(struct as Record<string, unknown>) };
    for (const [name, prepare] of parts) if (out[name] !== null && out[name] !== undefined) out[name] = prepare!(out[name]);
    return out;
  };
}

/** A LogicalType hyparquet does not know is dropped when it parses the footer: it would not be written back. */
function refuseUnknownAnnotations({ metadata, logicalFieldIds }: SourceFooter, path: string): void {
  logicalFieldIds.forEach((id, i) => {
    if (id !== undefined && !WRITABLE_LOGICAL_FIELDS.has(id)) {
      throw unsupportedFile(path, metadata.schema[i]?.name, `LogicalType field ${id}`, 'a logical type this reader and writer do not know would be lost');
    }
  });
}

/**
 * hyparquet 1.33 reads the first value of an INT32 DELTA_BINARY_PACKED block as a 32-bit varint,
 * while DuckDB writes an unsigned 32-bit column's values there as they are (past 2^31 they need
 * more bits): every value of the page comes out shifted. Such chunks are refused, not misread.
 */
function refuseMisreadDeltas(metadata: FileMetaData, columns: readonly ColumnPlan[], path: string): void {
  const unsigned = columns.flatMap((c) => c.leaves).filter((leaf) => leaf.element.type === 'INT32' && isUnsigned(leaf.element, 32));
  for (const leaf of unsigned) {
    const key = leaf.path.join('\u0000');
    const delta = metadata.row_groups.some((group) => group.columns.some((chunk) => chunk.meta_data?.path_in_schema.join('\u0000') === key && chunk.meta_data.encodings.includes('DELTA_BINARY_PACKED')));
    if (delta) throw unsupportedFile(path, leaf.path.join('.'), 'INT32 UINT_32, DELTA_BINARY_PACKED', 'hyparquet misreads unsigned values past 2^31 in this encoding');
  }
}

/** The footer with every leaf a plain physical column (some as their bytes), groups as they are. */
function readView(metadata: FileMetaData): FileMetaData {
  const asBytes = (type: SchemaElement['type']) => (type === undefined ? undefined : CARRIED_AS_BYTES[type]);
  return {
    ...metadata,
    schema: metadata.schema.map((element) => {
      if (element.type === undefined) return element;
      const length = asBytes(element.type);
      return length === undefined ? plainElement(element) : plainElement(element, 'FIXED_LEN_BYTE_ARRAY', length);
    }),
    row_groups: metadata.row_groups.map((group) => ({
      ...group,
      columns: group.columns.map((chunk) => (chunk.meta_data && asBytes(chunk.meta_data.type) !== undefined ? { ...chunk, meta_data: { ...chunk.meta_data, type: 'FIXED_LEN_BYTE_ARRAY' as const } } : chunk)),
    })),
  };
}
