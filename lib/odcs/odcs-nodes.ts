import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { didYouMean } from '../contract/did-you-mean.js';
import { emptyValueAfter, join, type Entries, type YamlReader } from '../contract/yaml-reader.js';

/**
 * The entries of an ODCS mapping. Unlike the native reader, a key outside `known` is a warning:
 * the document follows someone else's standard, and refusing it for a key we do not act on
 * would make every extension a blocker. `known` undefined accepts every key (server blocks,
 * whose keys depend on the server type).
 */
export function odcsEntries(reader: YamlReader, node: Node | null | undefined, path: string, known?: readonly string[]): Entries | undefined {
  const resolved = reader.resolve(node);
  if (!resolved || !isMap(resolved)) {
    reader.report('wrong_type', path, resolved ?? node, `expected a mapping${path ? '' : ' at the top of the file'}, found ${describe(resolved)}`);
    return undefined;
  }
  const entries: Entries = new Map();
  for (const pair of resolved.items) {
    const keyNode = pair.key as Node;
    if (!isScalar(keyNode)) {
      reader.report('wrong_type', path, keyNode, 'expected a plain key');
      continue;
    }
    const key = String(keyNode.value);
    if (known && !known.includes(key)) {
      const hint = didYouMean(key, known);
      reader.report('unknown_key', join(path, key), keyNode, `"${key}" is not an ODCS v3 key here and is ignored${hint ? `; did you mean "${hint}"?` : ''}`, 'warning');
      continue;
    }
    entries.set(key, { key: keyNode, value: reader.resolve(pair.value as Node | null) ?? emptyValueAfter(keyNode) });
  }
  return entries;
}

/** The items of an optional ODCS list; absent means empty. */
export function odcsItems(reader: YamlReader, entries: Entries, path: string, key: string): { node: Node | null; path: string }[] {
  const entry = entries.get(key);
  if (!entry) return [];
  const items = reader.items(entry.value, join(path, key)) ?? [];
  return items.map((node, i) => ({ node, path: `${join(path, key)}[${i}]` }));
}

/** A scalar's plain value, or undefined (unreported) for anything else: for probing, not reading. */
export function peek(reader: YamlReader, node: Node | null | undefined): unknown {
  const resolved = reader.resolve(node);
  return resolved && isScalar(resolved) ? resolved.value : undefined;
}

/** A scalar under `key` of a mapping node, unreported: for hints read before the mapping itself. */
export function peekChild(reader: YamlReader, node: Node | null | undefined, key: string): unknown {
  const map = reader.resolve(node);
  if (!map || !isMap(map)) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return peek(reader, pair?.value as Node | null | undefined);
}

/** The value of an optional key, read only when present. */
export function optional<T>(entries: Entries, key: string, read: (node: Node | null) => T | undefined): T | undefined {
  const entry = entries.get(key);
  return entry === undefined ? undefined : read(entry.value);
}

function describe(node: Node | null): string {
  if (!node) return 'nothing';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return node.value === null ? 'nothing' : `${typeof node.value} ${String(node.value).slice(0, 40)}`;
  return 'something else';
}
