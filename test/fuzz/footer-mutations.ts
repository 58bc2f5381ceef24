import type { Mutated } from './byte-mutations.js';
import { columnChunks, joinFile, parseLayout, rowGroups } from './parquet-layout.js';
import type { Prng } from './prng.js';
import { T, child, int, items, setInt, type TStruct } from './thrift-compact.js';

/** Mutations that re-encode a well-formed footer with one field forged. */

const HUGE = [2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 40, 2 ** 53, -1, -(2 ** 31), 0];

/** Row counts and value counts: the numbers readers allocate by. */
export function forgedCount(file: Uint8Array, rng: Prng): Mutated {
  const layout = parseLayout(file);
  const groups = rowGroups(layout.footer);
  const chunks = columnChunks(layout.footer);
  const target = rng.int(3);
  const value = rng.next() < 0.75 ? rng.pick(HUGE) : (int(layout.footer, 3) ?? 0) + 1 + rng.int(1000);
  let where = 'file num_rows';
  if (target === 0 || groups.length === 0) setInt(layout.footer, 3, value, T.I64);
  else if (target === 1) {
    const index = rng.int(groups.length);
    setInt(groups[index]!, 3, value, T.I64);
    where = `row group ${index} num_rows`;
  } else {
    const index = rng.int(chunks.length);
    const meta = child(chunks[index], 3);
    if (meta) setInt(meta, 5, value, T.I64);
    where = `chunk ${index} num_values`;
  }
  return { bytes: joinFile(layout.body, layout.footer), detail: `${where} = ${value}` };
}

/** Where a chunk starts and how long it is, and where its page index lives. */
export function forgedOffset(file: Uint8Array, rng: Prng): Mutated {
  const layout = parseLayout(file);
  const chunks = columnChunks(layout.footer);
  const index = rng.int(chunks.length);
  const chunk = chunks[index]!;
  const meta = child(chunk, 3);
  const [struct, id, name] = rng.pick([[meta, 9, 'data_page_offset'], [meta, 11, 'dictionary_page_offset'], [meta, 7, 'total_compressed_size'], [meta, 6, 'total_uncompressed_size'], [chunk, 4, 'offset_index_offset'], [chunk, 5, 'offset_index_length'], [chunk, 2, 'file_offset']] as const);
  const original = int(struct, id) ?? 0;
  const value = rng.pick([0, -1, 3, file.length, file.length + 1000, ...HUGE, original + 1 + rng.int(64), original - 1 - rng.int(64), rng.int(file.length)]);
  if (struct) setInt(struct, id, value, id === 5 ? T.I32 : T.I64);
  return { bytes: joinFile(layout.body, layout.footer), detail: `chunk ${index} ${name} ${original} -> ${value}` };
}

function element(name: string, fields: [number, number][]): TStruct {
  const struct: TStruct = new Map([[4, { type: T.BINARY, value: new TextEncoder().encode(name) }]]);
  for (const [id, value] of fields) struct.set(id, { type: T.I32, value });
  return struct;
}

/** A chain of nested groups, or a root that claims more children than there are. */
export function deepSchema(file: Uint8Array, rng: Prng): Mutated {
  const layout = parseLayout(file);
  const schema = items(layout.footer, 2) as TStruct[];
  if (rng.next() < 0.3) {
    const forged = rng.pick([2 ** 31 - 1, -1, schema.length, schema.length * 1000]);
    setInt(schema[0]!, 5, forged);
    return { bytes: joinFile(layout.body, layout.footer), detail: `root num_children = ${forged}` };
  }
  const depth = rng.pick([50, 500, 5_000, 50_000, 100_000]);
  const chain = Array.from({ length: depth }, (_, i) => element(`g${i}`, [[3, 1], [5, 1]]));
  const leaf = schema[1] ?? element('leaf', [[1, 1], [3, 1]]);
  const list = layout.footer.get(2)!.value as { items: TStruct[] };
  list.items = [element('schema', [[5, 1]]), ...chain, leaf];
  return { bytes: joinFile(layout.body, layout.footer), detail: `schema nested ${depth} deep` };
}

/** One schema element field set to something odd: type, length, repetition, annotation. */
export function schemaForge(file: Uint8Array, rng: Prng): Mutated {
  const layout = parseLayout(file);
  const schema = items(layout.footer, 2) as TStruct[];
  const index = rng.int(schema.length);
  const target = schema[index]!;
  if (rng.next() < 0.2) {
    const id = rng.pick([1, 4, 5]);
    target.delete(id);
    return { bytes: joinFile(layout.body, layout.footer), detail: `schema ${index} field ${id} removed` };
  }
  if (rng.next() < 0.15) {
    target.set(10, { type: T.STRUCT, value: new Map([[1 + rng.int(20), { type: T.STRUCT, value: new Map() }]]) });
    return { bytes: joinFile(layout.body, layout.footer), detail: `schema ${index} logical type forged` };
  }
  const id = rng.pick([1, 2, 3, 5, 6, 7, 8]);
  const value = rng.pick([-1, 0, 1, 3, 7, 12, 30, 100, 2 ** 31 - 1, -(2 ** 31)]);
  setInt(target, id, value, T.I32);
  return { bytes: joinFile(layout.body, layout.footer), detail: `schema ${index} field ${id} = ${value}` };
}
