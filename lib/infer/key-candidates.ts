import type { DeclaredKey } from './declared-keys.js';
import type { KeyResult } from './key-tracker.js';
import type { ProposedColumn } from './proposal.js';

/**
 * What a column can be in a key: `id` (an id-like name or values, whole numbers or strings),
 * `identity` (other whole numbers, strings, bytes), `date`, `time` (timestamps), `measure`
 * (floats, decimals) or `none` (booleans, and columns with nulls). Times and measures are
 * unique in a sample by chance: they make a key only when nothing else does.
 */
export type PartKind = 'id' | 'identity' | 'date' | 'time' | 'measure' | 'none';

export function partKind(column: ProposedColumn): PartKind {
  if (!column.required) return 'none';
  switch (column.type.kind) {
    case 'int32': case 'int64': case 'string': return column.idLike ? 'id' : 'identity';
    case 'binary': return 'identity';
    case 'date': return 'date';
    case 'timestamp': case 'timestamp_ntz': return 'time';
    case 'float32': case 'float64': case 'decimal': return 'measure';
    default: return 'none';
  }
}

/** A candidate key as the choice sees it. */
export interface KeyView {
  /** In the columns' order. */
  readonly columns: readonly string[];
  readonly kinds: readonly PartKind[];
  readonly indices: readonly number[];
  readonly declared?: DeclaredKey;
  /** A time or a measure among its columns. */
  readonly chance: boolean;
  readonly idParts: number;
}

export function keyView(columns: readonly string[], byName: ReadonlyMap<string, { column: ProposedColumn; index: number }>, declared: readonly DeclaredKey[]): KeyView | undefined {
  const found = columns.map((name) => byName.get(name));
  if (found.some((f) => f === undefined)) return undefined;
  const parts = (found as { column: ProposedColumn; index: number }[]).sort((a, b) => a.index - b.index);
  const kinds = parts.map((p) => partKind(p.column));
  const names = parts.map((p) => p.column.name);
  const match = declared.find((d) => d.columns.length === names.length && d.columns.every((c) => names.includes(c)));
  // A declared key is the writer's word: its parts need only be unique, as the samples showed.
  if (!match && kinds.includes('none')) return undefined;
  return {
    columns: names, kinds, indices: parts.map((p) => p.index), ...(match ? { declared: match } : {}),
    chance: kinds.some((k) => k === 'time' || k === 'measure'), idParts: kinds.filter((k) => k === 'id').length,
  };
}

/**
 * The order of preference: keys with no time or measure; then a declared key (a pandas index on
 * a timestamp is a convenience more often than a key, so a time still ranks it last); then keys
 * with an id-like column; then fewer columns (the smallest key); then all columns id-like; then
 * the columns' order in the file.
 */
export function keyRank(key: KeyView): number[] {
  return [key.chance ? 1 : 0, key.declared ? 0 : 1, key.idParts > 0 ? 0 : 1, key.columns.length, key.idParts === key.columns.length ? 0 : 1, ...key.indices];
}

export function compareKeys(a: KeyView, b: KeyView): number {
  const [ra, rb] = [keyRank(a), keyRank(b)];
  for (let i = 0; i < Math.max(ra.length, rb.length); i++) {
    const d = (ra[i] ?? 0) - (rb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** A key no larger key can beat (see keyRank): with no time or measure, declared or id-like. */
export function isSettled(key: KeyView | undefined): boolean {
  return key !== undefined && !key.chance && (key.declared !== undefined || key.idParts > 0);
}

/** Columns tried in pairs: 12 give 66 pairs. Triples, only when no pair will do: 8 give 56. */
export const PAIR_COLUMNS = 12;
export const TRIPLE_COLUMNS = 8;

/** One round of the composite search: its parts, and the plausible columns left out by the cap. */
export interface CompositeRound {
  readonly size: number;
  readonly parts: readonly string[];
  readonly left: number;
  readonly keys: readonly (readonly string[])[];
}

const PART_ORDER: readonly PartKind[] = ['id', 'identity', 'date', 'time'];

/**
 * The columns worth combining into a key of `size`: declared (and so not left out), required,
 * neither float nor boolean, not unique alone (a key holding a key is not the smallest), and
 * not constant; id-like first, then other identities, dates and timestamps, capped.
 */
export function compositeRound(size: 2 | 3, columns: readonly ProposedColumn[], results: readonly KeyResult[], constant: ReadonlySet<string>): CompositeRound {
  const single = new Map(results.filter((r) => r.columns.length === 1).map((r) => [r.columns[0]!, r]));
  const plausible = columns.filter((c) => {
    const failure = single.get(c.name)?.failure;
    return PART_ORDER.includes(partKind(c)) && !constant.has(c.name) && failure !== undefined && failure.reason !== 'null' && failure.reason !== 'missing';
  });
  const ranked = [...plausible].sort((a, b) => PART_ORDER.indexOf(partKind(a)) - PART_ORDER.indexOf(partKind(b)));
  const cap = size === 2 ? PAIR_COLUMNS : TRIPLE_COLUMNS;
  const parts = ranked.slice(0, cap).map((c) => c.name);
  const order = new Map(columns.map((c, i) => [c.name, i]));
  // A set holding a key already unique is unique too, and no smaller: not worth its memory.
  const unique = results.filter((r) => !r.failure).map((r) => r.columns);
  const keys = combinations(parts, size)
    .filter((key) => !unique.some((u) => u.every((c) => key.includes(c))))
    .map((key) => key.sort((a, b) => order.get(a)! - order.get(b)!));
  return { size, parts, left: Math.max(0, ranked.length - cap), keys };
}

/** The tracker's priority for a composite: all id-like 0, some 1, none 2, with a time 3. */
export function compositePriority(key: readonly string[], byName: ReadonlyMap<string, ProposedColumn>): number {
  const kinds = key.map((name) => partKind(byName.get(name)!));
  if (kinds.includes('time')) return 3;
  return kinds.every((k) => k === 'id') ? 0 : kinds.includes('id') ? 1 : 2;
}

function combinations(items: readonly string[], size: number): string[][] {
  if (size === 0) return [[]];
  return items.flatMap((item, i) => combinations(items.slice(i + 1), size - 1).map((rest) => [item, ...rest]));
}
