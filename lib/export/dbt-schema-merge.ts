import { isMap, isScalar, isSeq, parse, parseDocument, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import { OWNED, partNames, valueAt, type Entry, type KeyPath } from './dbt-schema-part.js';
import { exportDbt, type DbtOptions } from './to-dbt.js';

const READ = { intAsBigInt: true } as const;

/**
 * `export --to dbt --write`: the schema.yml with the part the export owns (dbt-schema-part.ts)
 * as the contract generates it, and everything else as it was, comments included: other models
 * and sources, other tables of `published`, and the user's keys inside the owned entries. A
 * missing or empty file gets the export as `--out` writes it. `existing` must be YAML that
 * `readDbtSchema` accepted.
 */
export function mergeDbtSchema(contract: Contract, existing: string | undefined, file: string, options: DbtOptions = {}): string {
  const text = exportDbt(contract, options);
  if (existing === undefined || existing.trim() === '') return text;
  const doc: Document = parseDocument(existing, READ);
  if (doc.contents === null) doc.contents = doc.createNode({ version: 2 });
  const root = doc.contents;
  if (!isMap(root)) throw new GateError('bad_arguments', `${file}: not a mapping of version, models and sources; fix it or delete it and write it again`);
  const generated = parse(text, READ) as { models: Entry[]; sources: (Entry & { tables: Entry[] })[] };
  const [model, source] = [generated.models[0]!, generated.sources[0]!];
  const names = partNames(contract);
  const modelNode = upsert(doc, listAt(doc, root, 'models', file), model, OWNED.model);
  mergeColumns(doc, modelNode, model['columns'] as Entry[]);
  const sourceNode = upsert(doc, listAt(doc, root, 'sources', file), { name: names.source, description: source['description'] }, OWNED.source);
  upsert(doc, listAt(doc, sourceNode, 'tables', `${file}: source ${names.source}`), source.tables[0]!, OWNED.table);
  renewHeader(doc, contract, parseDocument(text).commentBefore);
  return printed(doc, file);
}

/** The merged file; an alias of the user's to an anchor in the regenerated part has nothing left to point at. */
function printed(doc: Document, file: string): string {
  try {
    return doc.toString({ lineWidth: 0 });
  } catch (error) {
    const anchor = /Unresolved alias[^:]*: (\S+)/.exec(error instanceof Error ? error.message : '')?.[1];
    if (anchor === undefined) throw error;
    throw new GateError('bad_arguments', `${file}: *${anchor} refers to the anchor &${anchor}, which sits in the part the export regenerates (and so drops); define &${anchor} in an entry of your own, or write its value out in place of *${anchor}, then write again. The file is unchanged`);
  }
}

/** The list under `key`, made when absent or null; anything else there is the user's to fix. */
function listAt(doc: Document, map: YAMLMap, key: string, where: string): YAMLSeq {
  const node = map.get(key, true);
  if (isSeq(node)) return node;
  if (node !== undefined && !(isScalar(node) && node.value === null)) {
    throw new GateError('bad_arguments', `${where}: ${key} is not a list; make it one (or delete it) and write again`);
  }
  const list = doc.createNode([]) as YAMLSeq;
  map.set(key, list);
  return list;
}

/** The entry of the list with the generated entry's name, its owned paths set from it; added at the end when absent. */
function upsert(doc: Document, list: YAMLSeq, generated: Entry, paths: readonly KeyPath[]): YAMLMap {
  const found = list.items.find((item): item is YAMLMap => isMap(item) && item.get('name') === generated['name']);
  if (found) return setOwned(doc, found, generated, paths);
  const node = doc.createNode(generated) as YAMLMap;
  list.items.push(node);
  return node;
}

/**
 * Each owned path as generated: set when the export writes it, removed when it does not. The
 * entry's keys then read as the export writes them (its keys in its order, the user's after
 * them, a list of columns or tables last), and a flow mapping the export writes into turns block.
 */
function setOwned(doc: Document, map: YAMLMap, generated: Entry, paths: readonly KeyPath[]): YAMLMap {
  for (const path of paths) {
    const value = valueAt(generated, path);
    if (value === undefined) {
      deletePath(map, path);
      continue;
    }
    for (let length = 1; length < path.length; length++) {
      // A `config: table` where a mapping belongs is no dbt a user can have meant to keep.
      const holder = map.getIn(path.slice(0, length), true);
      if (holder !== undefined && !isMap(holder)) map.setIn(path.slice(0, length), doc.createNode({}));
    }
    map.setIn(path, doc.createNode(value));
    for (let length = 0; length < path.length; length++) {
      const holder = length === 0 ? map : map.getIn(path.slice(0, length), true);
      if (isMap(holder)) holder.flow = false;
    }
  }
  const order = [...new Set(paths.map((path) => path[0]!))];
  const rank = (key: unknown) => (key === 'columns' || key === 'tables' ? order.length + 1 : order.includes(String(key)) ? order.indexOf(String(key)) : order.length);
  map.items = map.items.map((pair, at) => ({ pair, at })).sort((x, y) => rank(keyOf(x.pair.key)) - rank(keyOf(y.pair.key)) || x.at - y.at).map(({ pair }) => pair);
  return map;
}

function keyOf(key: unknown): unknown {
  return isScalar(key) ? key.value : key;
}

/** Removes a path and the mappings it leaves empty (a `meta:` that only held contract_gate). */
function deletePath(map: YAMLMap, path: KeyPath): void {
  const holder = path.length === 1 ? map : map.getIn(path.slice(0, -1), true);
  if (!isMap(holder)) return;
  holder.delete(path.at(-1));
  for (let length = path.length - 1; length > 0; length--) {
    const parent = map.getIn(path.slice(0, length), true);
    if (isMap(parent) && parent.items.length === 0) map.deleteIn(path.slice(0, length));
  }
}

/** The contract's columns in its order, each merged into the committed column of its name; others dropped. */
function mergeColumns(doc: Document, model: YAMLMap, columns: readonly Entry[]): void {
  const committed = model.get('columns', true);
  const list = isSeq(committed) ? committed : (doc.createNode([]) as YAMLSeq);
  const before = [...list.items];
  list.items = columns.map((column) => {
    const found = before.find((item): item is YAMLMap => isMap(item) && item.get('name') === column['name']);
    return found ? setOwned(doc, found, column, OWNED.column) : doc.createNode(column);
  });
  if (!isSeq(committed)) model.set('columns', list);
}

/** A header the export wrote for this contract names the version now; any other comment is the user's. */
function renewHeader(doc: Document, contract: Contract, header: string | null | undefined): void {
  const mine = ` Generated by contract-gate from ${contract.name} `;
  if (doc.commentBefore?.startsWith(mine) && header) doc.commentBefore = header;
}
