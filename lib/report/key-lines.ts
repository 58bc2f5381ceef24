import { isScalar, LineCounter, parseDocument, visit } from 'yaml';

interface KeyAt {
  readonly key: string;
  /** The value when it is a scalar, e.g. a column's `name`. */
  readonly value: unknown;
  readonly line: number;
  readonly col: number;
  readonly depth: number;
}

export interface Position {
  readonly line: number;
  readonly col: number;
}

/**
 * Where keys sit in a contract's YAML, native or ODCS alike, so an annotation can point at the
 * line a change is about. Never throws: a file that does not parse simply has no positions.
 */
export class KeyLines {
  private readonly keys: readonly KeyAt[];

  constructor(text: string) {
    this.keys = collectKeys(text);
  }

  /** The `name: <column>` entry of a column (below the top level: the dataset has a `name` too). */
  column(column: string): Position | undefined {
    return this.keys.find((k) => k.key === 'name' && k.value === column && k.depth > 2);
  }

  /** The shallowest of these keys, e.g. `version`, or `sla` before an inner one. */
  key(names: readonly string[]): Position | undefined {
    const found = this.keys.filter((k) => names.includes(k.key));
    return found.sort((a, b) => a.depth - b.depth)[0];
  }
}

function collectKeys(text: string): KeyAt[] {
  const keys: KeyAt[] = [];
  try {
    const counter = new LineCounter();
    const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false });
    visit(doc, {
      Pair(_, pair, path) {
        if (!isScalar(pair.key) || !pair.key.range) return;
        const { line, col } = counter.linePos(pair.key.range[0]);
        keys.push({ key: String(pair.key.value), value: isScalar(pair.value) ? pair.value.value : undefined, line, col, depth: path.length });
      },
    });
  } catch {
    // A file too broken to parse is reported by its load problems; positions fall back to line 1.
  }
  return keys;
}
