/**
 * The records a status read could not use, as lines for the page. Keys that fit no path the
 * gate writes are counted per root with one example, so a bucket full of stray objects makes
 * one line, not one per object.
 */
export interface StatusProblems {
  add(text: string): void;
  misfit(root: string, key: string, expected: string): void;
  list(): string[];
}

export function statusProblems(): StatusProblems {
  const lines: string[] = [];
  const misfits = new Map<string, { count: number; example: string; expected: string }>();
  return {
    add: (text) => void lines.push(text),
    misfit(root, key, expected) {
      const seen = misfits.get(root);
      if (seen) seen.count += 1;
      else misfits.set(root, { count: 1, example: key, expected });
    },
    list() {
      const strays = [...misfits.values()].map(({ count, example, expected }) =>
        count === 1 ? `${example} is not a key the gate writes (expected ${expected})` : `${count} keys are not keys the gate writes, e.g. ${example} (expected ${expected})`);
      return [...lines, ...strays];
    },
  };
}
