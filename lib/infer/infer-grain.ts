import type { ProposedColumn } from './proposal.js';

/** Columns tried in pairs when no single column is a key: 12 give 66 pairs, a bounded second pass. */
export const PAIR_COLUMNS = 12;

/**
 * A key column must be declared, required, and of a type whose values are identities: floats
 * and decimals are measurements, unique in a sample by chance, and a boolean has two values.
 */
function keyable(column: ProposedColumn | undefined): boolean {
  if (!column?.required) return false;
  return !['float32', 'float64', 'decimal', 'boolean'].includes(column.type.kind);
}

/** The column pairs worth tracking when no single column was unique in every partition. */
export function pairCandidates(columns: readonly ProposedColumn[]): string[][] {
  const names = columns.filter(keyable).map((c) => c.name).slice(0, PAIR_COLUMNS);
  return names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b]));
}

/**
 * Picks the grain among the keys that were unique and non-null in every partition: single
 * columns before pairs, then a name that says it is a key (`order_id`, `id`, `sku_key`), then
 * strings and whole numbers, then declaration order. The others are listed in a comment.
 */
export function chooseGrain(unique: readonly (readonly string[])[], columns: readonly ProposedColumn[], partitions: number): { grain: string[]; notes: string[] } {
  const byName = new Map(columns.map((c, i) => [c.name, { column: c, index: i }]));
  const keys = unique.filter((key) => key.every((name) => keyable(byName.get(name)?.column)));
  if (keys.length === 0) return { grain: [], notes: [`no grain: no column${unique.length ? ' that can be a key' : ''}, nor pair of columns, was unique and non-null in every partition`] };
  const rank = (key: readonly string[]) => [key.length, key.some(isKeyName) ? 0 : 1, key.every((n) => isIdentityType(byName.get(n)!.column)) ? 0 : 1, ...key.map((n) => byName.get(n)!.index)];
  const sorted = [...keys].sort((a, b) => compareRanks(rank(a), rank(b)));
  const [grain, ...others] = sorted as [readonly string[], ...(readonly string[])[]];
  const notes = [`grain: ${grain.join(', ')} is unique and non-null in each of ${partitions} partition${partitions === 1 ? '' : 's'} (uniqueness is checked per partition)`];
  if (others.length) notes.push(`other candidates: ${others.slice(0, 8).map((k) => k.join(' + ')).join(', ')}${others.length > 8 ? ', …' : ''}`);
  return { grain: [...grain], notes };
}

function isKeyName(name: string): boolean {
  return /(^|_)(id|key|uuid)$/i.test(name);
}

function isIdentityType(column: ProposedColumn): boolean {
  return ['string', 'int32', 'int64'].includes(column.type.kind);
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
