/** One line of a diff: kept (` `), only in the old text (`-`), or only in the new (`+`). */
interface DiffLine {
  readonly mark: ' ' | '-' | '+';
  readonly text: string;
}

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

/**
 * The shortest edit script of two runs of lines (Myers' O(ND) algorithm): a few edits far apart
 * in a long file cost little. Each round's frontier is kept to walk back; past MAX_TRACE cells of
 * it (thousands of edits) the runs are shown as replaced whole.
 */
function alignMiddle(a: readonly string[], b: readonly string[]): DiffLine[] {
  const removed = a.map((text): DiffLine => ({ mark: '-', text }));
  const added = b.map((text): DiffLine => ({ mark: '+', text }));
  if (a.length === 0 || b.length === 0) return [...removed, ...added];
  const trace = frontiers(a, b);
  return trace ? walkBack(a, b, trace) : [...removed, ...added];
}

/** Past this many kept frontier cells the diff gives up aligning. */
const MAX_TRACE = 4_000_000;

/** frontier[d][k + d]: how far along `a` the furthest path of d edits reaches on diagonal k (before round d). */
function frontiers(a: readonly string[], b: readonly string[]): Int32Array[] | undefined {
  const [n, m] = [a.length, b.length];
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  let kept = 0;
  for (let d = 0; d <= n + m; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    kept += 2 * d + 1;
    if (kept > MAX_TRACE) return undefined;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) [x, y] = [x + 1, y + 1];
      v[offset + k] = x;
      if (x >= n && y >= m) return trace;
    }
  }
  return trace;
}

function walkBack(a: readonly string[], b: readonly string[], trace: readonly Int32Array[]): DiffLine[] {
  const lines: DiffLine[] = [];
  let [x, y] = [a.length, b.length];
  for (let d = trace.length - 1; d > 0; d--) {
    const before = trace[d]!;
    const at = (k: number) => before[k + d]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) lines.push({ mark: ' ', text: a[--x]! }), y--;
    if (down) lines.push({ mark: '+', text: b[--y]! });
    else lines.push({ mark: '-', text: a[--x]! });
  }
  while (x > 0 && y > 0) lines.push({ mark: ' ', text: a[--x]! }), y--;
  return lines.reverse();
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
