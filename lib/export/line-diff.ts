/** One line of a diff: kept (` `), only in the old text (`-`), or only in the new (`+`). */
interface DiffLine {
  readonly mark: ' ' | '-' | '+';
  readonly text: string;
}

/** Past this many cells the middle of two texts is shown as replaced whole, not aligned line by line. */
const MAX_TABLE_CELLS = 4_000_000;

/**
 * A unified diff (`--- old`, `+++ new`, `@@ -a,b +c,d @@` hunks with `context` lines around each
 * change) of two texts, or '' when they are equal. The common head and tail are cut first, so
 * the usual edit of a few lines costs a table of those lines only.
 */
export function unifiedDiff(oldText: string, newText: string, labels: { readonly old: string; readonly new: string }, context = 3): string {
  if (oldText === newText) return '';
  const lines = diffLines(splitLines(oldText), splitLines(newText));
  return [`--- ${labels.old}`, `+++ ${labels.new}`, ...hunks(lines, context)].join('\n') + '\n';
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function diffLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const kept = (text: string): DiffLine => ({ mark: ' ', text });
  return [
    ...a.slice(0, head).map(kept),
    ...alignMiddle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map(kept),
  ];
}

/** The longest common subsequence of two runs of lines, as a dynamic-programming table. */
function alignMiddle(a: readonly string[], b: readonly string[]): DiffLine[] {
  const removed = a.map((text): DiffLine => ({ mark: '-', text }));
  const added = b.map((text): DiffLine => ({ mark: '+', text }));
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_TABLE_CELLS) return [...removed, ...added];
  const width = b.length + 1;
  // table[i * width + j]: the common lines of a[i..] and b[j..].
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  const lines: DiffLine[] = [];
  let [i, j] = [0, 0];
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i]! });
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) lines.push(removed[i++]!);
    else lines.push(added[j++]!);
  }
  return [...lines, ...removed.slice(i), ...added.slice(j)];
}

/** The changed lines with `context` kept lines around them, runs closer than 2 × context joined. */
function hunks(lines: readonly DiffLine[], context: number): string[] {
  const changed = lines.flatMap((line, at) => (line.mark === ' ' ? [] : [at]));
  const out: string[] = [];
  let start = 0;
  while (start < changed.length) {
    let end = start;
    while (end + 1 < changed.length && changed[end + 1]! - changed[end]! <= 2 * context + 1) end++;
    const from = Math.max(0, changed[start]! - context);
    const to = Math.min(lines.length, changed[end]! + context + 1);
    out.push(hunkHeader(lines, from, to), ...lines.slice(from, to).map((line) => `${line.mark}${line.text}`));
    start = end + 1;
  }
  return out;
}

function hunkHeader(lines: readonly DiffLine[], from: number, to: number): string {
  const before = lines.slice(0, from);
  const within = lines.slice(from, to);
  const count = (set: readonly DiffLine[], side: '-' | '+') => set.filter((line) => line.mark !== (side === '-' ? '+' : '-')).length;
  const range = (side: '-' | '+') => {
    const length = count(within, side);
    // A side with no lines names the line before the hunk, as diff -u does.
    return `${length === 0 ? count(before, side) : count(before, side) + 1},${length}`;
  };
  return `@@ -${range('-')} +${range('+')} @@`;
}
