/**
 * A set of Unicode code points as sorted, disjoint, non-adjacent inclusive ranges
 * `[lo0, hi0, lo1, hi1, ...]`. Patterns are analysed and translated through these sets, so what a
 * class such as `\s` or `.` means is written down once, from the JavaScript definition.
 */
export type CodePointSet = readonly number[];

export const MAX_CODE_POINT = 0x10ffff;

export const EMPTY: CodePointSet = [];
export const ANY: CodePointSet = [0, MAX_CODE_POINT];

export function single(point: number): CodePointSet {
  return [point, point];
}

export function range(lo: number, hi: number): CodePointSet {
  return lo <= hi ? [lo, hi] : EMPTY;
}

export function union(...sets: CodePointSet[]): CodePointSet {
  const pairs: [number, number][] = [];
  for (const set of sets) for (let i = 0; i < set.length; i += 2) pairs.push([set[i]!, set[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [lo, hi] of pairs) {
    const last = merged.length - 1;
    if (last > 0 && lo <= merged[last]! + 1) merged[last] = Math.max(merged[last]!, hi);
    else merged.push(lo, hi);
  }
  return merged;
}

export function complement(set: CodePointSet): CodePointSet {
  const result: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i]! > next) result.push(next, set[i]! - 1);
    next = set[i + 1]! + 1;
  }
  if (next <= MAX_CODE_POINT) result.push(next, MAX_CODE_POINT);
  return result;
}

export function intersects(a: CodePointSet, b: CodePointSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return true;
  }
  return false;
}

/** `\d` with the `u` flag: ASCII digits only. */
export const DIGIT: CodePointSet = [0x30, 0x39];
/** `\w` with the `u` flag and without `i`: ASCII letters, digits and `_`. */
export const WORD: CodePointSet = union(DIGIT, range(0x41, 0x5a), single(0x5f), range(0x61, 0x7a));
/** JavaScript's LineTerminator: what `.` does not match. */
export const LINE_TERMINATOR: CodePointSet = union(single(0x0a), single(0x0d), range(0x2028, 0x2029));
/** `\s`: JavaScript's WhiteSpace (Unicode Zs among it) and LineTerminator. RE2's `\s` is ASCII only. */
export const SPACE: CodePointSet = union(
  range(0x09, 0x0d), single(0x20), single(0xa0), single(0x1680), range(0x2000, 0x200a),
  range(0x2028, 0x2029), single(0x202f), single(0x205f), single(0x3000), single(0xfeff),
);
/** `.` without the `s` flag. RE2's `.` excludes only `\n`. */
export const DOT: CodePointSet = complement(LINE_TERMINATOR);

/** How RE2 writes the set: a single `\x{H}`, or the ranges, bracketed unless `bracket` is false (inside another class). */
export function re2Syntax(set: CodePointSet, bracket = true): string {
  if (set.length === 0) return bracket ? `[^\\x{0}-\\x{${MAX_CODE_POINT.toString(16)}}]` : '';
  if (bracket && set.length === 2 && set[0] === set[1]) return point(set[0]!);
  let ranges = '';
  for (let i = 0; i < set.length; i += 2) ranges += set[i] === set[i + 1] ? point(set[i]!) : `${point(set[i]!)}-${point(set[i + 1]!)}`;
  return bracket ? `[${ranges}]` : ranges;
}

function point(code: number): string {
  return `\\x{${code.toString(16)}}`;
}
