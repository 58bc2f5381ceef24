import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';

/** 1-based, as editors show them. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Finds the position of a dotted path such as `schema.columns[2].references.column` in a file. */
export type Locate = (path: string) => Position;

/**
 * Places problems found after loading (lint's checks across contracts) where the loader would
 * have: at the value of the path, or at the nearest of its parents the file has. For a file that
 * loaded, so its size and shape are already bounded.
 */
export function locator(text: string): Locate {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  return (path) => {
    const node = walk(doc, path);
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0);
    return { line: Math.max(line, 1), column: Math.max(col, 1) };
  };
}

function walk(doc: Document, path: string): Node | null {
  let node = resolve(doc, doc.contents as Node | null);
  for (const [, key, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    const next = key !== undefined ? valueOf(node, key) : isSeq(node) ? (node.items[Number(index)] as Node | null | undefined) : undefined;
    if (next === undefined || next === null) break;
    node = resolve(doc, next);
  }
  return node;
}

function valueOf(node: Node | null, key: string): Node | null | undefined {
  if (!node || !isMap(node)) return undefined;
  const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return pair?.value as Node | null | undefined;
}

function resolve(doc: Document, node: Node | null): Node | null {
  return node && isAlias(node) ? ((node.resolve(doc) as Node | undefined) ?? null) : node;
}
