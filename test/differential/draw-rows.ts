import { mustHaveValue, type SpecContract } from './contract-spec.js';
import type { ColumnRecipe } from './draw-contract.js';
import type { Random } from './random-tools.js';

/** Every column's values over the whole partition (all files end to end), by column name. */
export type PartitionValues = Map<string, unknown[]>;

/** How many rows get a plant: often none, sometimes one, a few, 1 % or a fifth, anywhere in the partition. */
export function plantCount(r: Random, rows: number): number {
  return r.weighted([[35, 0], [25, 1], [20, r.between(2, 5)], [10, Math.ceil(rows * 0.01)], [10, Math.ceil(rows * 0.2)]]);
}

/**
 * Each column's values for every row of the partition, then its plants at positions drawn over
 * all of it (not clustered): nulls in columns that must have a value, a value breaking each rule.
 */
export function drawRows(contract: SpecContract, recipes: readonly ColumnRecipe[], rows: number, r: Random): PartitionValues {
  const values: PartitionValues = new Map();
  for (const recipe of recipes) {
    const { spec } = recipe;
    const distinct = spec.unique || contract.grain[0] === spec.name;
    const column = distinct ? distinctValues(recipe, rows, r) : pooledValues(recipe, rows, r);
    if (mustHaveValue(contract, spec)) plantAt(column, plantCount(r, rows), r, () => null);
    for (const plant of recipe.values.plants) plantAt(column, plantCount(r, rows), r, plant.value);
    values.set(spec.name, column);
  }
  return values;
}

function pooledValues(recipe: ColumnRecipe, rows: number, r: Random): unknown[] {
  const pool = recipe.pool;
  return Array.from({ length: rows }, () => (r.chance(recipe.nullRate) ? null : pool ? r.pick(pool) : recipe.values.good(r)));
}

/** Fresh values, retried a few times on a repeat: only planted duplicates should repeat. */
function distinctValues(recipe: ColumnRecipe, rows: number, r: Random): unknown[] {
  const seen = new Set<string>();
  return Array.from({ length: rows }, () => {
    if (r.chance(recipe.nullRate)) return null;
    let value = recipe.values.good(r);
    for (let tries = 0; tries < 4 && seen.has(identity(value)); tries++) value = recipe.values.good(r);
    seen.add(identity(value));
    return value;
  });
}

export function identity(value: unknown): string {
  if (value instanceof Uint8Array) return `b:${Buffer.from(value).toString('hex')}`;
  return `${typeof value}:${String(value)}`;
}

export function plantAt(column: unknown[], count: number, r: Random, value: (r: Random) => unknown): void {
  for (const row of r.positions(count, column.length)) column[row] = value(r);
}

/** Copies key parts from one row to another, anywhere in the partition, so keys repeat across files. */
export function plantDuplicates(values: PartitionValues, keys: readonly string[], rows: number, r: Random): void {
  const columns = keys.map((name) => values.get(name)!);
  const count = rows < 2 ? 0 : plantCount(r, rows);
  for (let i = 0; i < count; i++) {
    const [from, to] = [r.int(rows), r.int(rows)];
    // Sometimes only the first part: a near duplicate, equal on one part and not the whole key.
    const parts = keys.length > 1 && r.chance(0.25) ? columns.slice(0, 1) : columns;
    for (const column of parts) column[to] = column[from];
  }
}
