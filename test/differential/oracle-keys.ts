import type { SpecContract } from './contract-spec.js';
import { queryRows } from './duckdb-session.js';
import type { FileView } from './file-view.js';
import { countKey } from './outcome.js';

/** The key sets the README names: the grain, and each unique column that is not the whole grain. */
export function keySets(contract: SpecContract): { key: string; columns: readonly string[] }[] {
  const sets: { key: string; columns: readonly string[] }[] = [];
  if (contract.grain.length > 0) sets.push({ key: 'grain', columns: contract.grain });
  for (const column of contract.columns) {
    const wholeGrain = contract.grain.length === 1 && contract.grain[0] === column.name;
    if (column.unique && !wholeGrain) sets.push({ key: countKey('unique', column.name), columns: [column.name] });
  }
  return sets;
}

/**
 * Distinct keys that occur more than once across all files. A row takes part only when every key
 * part is there, parsed, and in a file that stores it with a usable type (nulls are `required`,
 * unparsed values `type`, missing or mistyped columns reported per file instead).
 */
export async function repeatedKeys(columns: readonly string[], views: readonly FileView[]): Promise<number> {
  const parts: string[] = [];
  for (const view of views) {
    const access = columns.map((name) => view.columns.get(name));
    if (!access.every((a) => typeof a === 'object')) continue;
    const select = access.map((a, i) => `${a.value} AS k${i}`).join(', ');
    const where = access.map((a) => `NOT ${a.isNull} AND NOT ${a.isInvalid}`).join(' AND ');
    parts.push(`SELECT ${select} FROM ${view.from} WHERE ${where}`);
  }
  if (parts.length === 0) return 0;
  const keys = columns.map((_, i) => `k${i}`).join(', ');
  const rows = await queryRows(`SELECT count(*) AS n FROM (SELECT ${keys} FROM (${parts.join(' UNION ALL ')}) GROUP BY ${keys} HAVING count(*) > 1)`);
  return Number(rows[0]?.n ?? 0);
}
