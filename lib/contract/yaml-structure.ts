import { isScalar, visit, type Document, type Node, type YAMLMap } from 'yaml';

export interface DocumentShape {
  readonly aliases: number;
  /** Every key written again in the same mapping, at its second (third...) occurrence. */
  readonly repeatedKeys: readonly Node[];
}

/**
 * One pass over a composed document, for the checks that must see all of it. yaml's own
 * `uniqueKeys` compares each key with every earlier key of its mapping, which takes seconds for a
 * mapping of 20,000 keys; a set per mapping takes milliseconds. The walk recurses per level, which
 * the nesting bound of the budget check has already limited.
 */
export function inspectDocument(doc: Document): DocumentShape {
  let aliases = 0;
  const repeatedKeys: Node[] = [];
  visit(doc, {
    Alias: () => void aliases++,
    Map: (_, map) => void repeatedKeys.push(...repeatedIn(map)),
  });
  return { aliases, repeatedKeys };
}

/** Keys are the same when their scalar values are, as yaml's check has it: `1` and `"1"` differ. */
function repeatedIn(map: YAMLMap): Node[] {
  const seen = new Set<unknown>();
  const repeated: Node[] = [];
  for (const { key } of map.items) {
    if (!isScalar(key)) continue;
    if (seen.has(key.value)) repeated.push(key);
    seen.add(key.value);
  }
  return repeated;
}
