import { stringEnd } from './json-line.js';

/**
 * A key given twice in one object: JSON.parse keeps the last value, DuckDB refuses the file, and
 * other readers keep the first, so the row means what its reader makes of it. Such a line is
 * unreadable, naming the key and where its second appearance starts.
 */
export interface DuplicateKey {
  readonly key: string;
  /** 1-based character column of the key's second appearance in its line. */
  readonly column: number;
}

export function duplicateKeyReason({ key, column }: DuplicateKey): string {
  return `the key ${JSON.stringify(key)} appears twice in the object (again at column ${column}); readers disagree on which value counts (DuckDB refuses the file): write each key once`;
}

/** The first key of the top-level object `text` (valid JSON) that repeats an earlier one. */
export function duplicateTopLevelKey(text: string): DuplicateKey | undefined {
  const seen = new Set<string>();
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (depth === 1 && expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (seen.has(key)) return { key, column: i + 1 };
        seen.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      expectKey = c === 0x7b && depth === 1;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 1) expectKey = true;
  }
  return undefined;
}
