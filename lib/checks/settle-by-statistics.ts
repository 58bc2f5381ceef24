import type { ChunkStatistics, RowGroupInfo } from '../formats/table-file.js';
import type { CheckPlan, ColumnPlan } from './check-plan.js';
import type { ReadableColumn } from './schema-check.js';

/**
 * Decides, from what a row group's footer and dictionaries prove, which columns must be decoded.
 * A column is skipped only when every one of its rules is proven for the whole row group;
 * anything unproven (no statistics, a bound crossed, a dictionary entry that breaks a rule) is
 * decoded, and a decoded column yields exact counts and samples.
 */
export async function columnsToDecode(plan: CheckPlan, readable: readonly ReadableColumn[], group: RowGroupInfo): Promise<string[]> {
  const needed = new Set<string>([...plan.grain, ...plan.columns.filter((c) => c.spec.unique).map((c) => c.spec.name)]);
  for (const { plan: column } of readable) {
    if (needed.has(column.spec.name) || !(await proven(plan, column, group))) {
      needed.add(column.spec.name);
      if (column.spec.requiredWhen) needed.add(column.spec.requiredWhen.column);
    }
  }
  return readable.map((c) => c.plan.spec.name).filter((name) => needed.has(name));
}

async function proven(plan: CheckPlan, column: ColumnPlan, group: RowGroupInfo): Promise<boolean> {
  // A column with nothing to check (an optional one without rules) is never decoded, statistics or not.
  if (nothingToCheck(plan, column)) return true;
  const stats = group.statistics.get(column.spec.name);
  if (provenByStatistics(plan, column, stats)) return true;
  // The dictionary holds values, not nulls or the newest value: those stay with the statistics.
  if (!stats || !nullsSettled(column, stats) || plan.freshness?.column === column.spec.name || !group.dictionary) return false;
  const values = await group.dictionary(column.spec.name);
  return values !== undefined && values.every((value) => column.rules.every((rule) => !rule.fails(value)));
}

export function provenByStatistics(plan: CheckPlan, column: ColumnPlan, stats: ChunkStatistics | undefined): boolean {
  if (!stats || !nullsSettled(column, stats)) return false;
  if (plan.freshness?.column === column.spec.name && (stats.max === undefined || !stats.maxExact)) return false;
  return column.rules.every((rule) => {
    switch (rule.rule) {
      case 'min': return stats.min !== undefined && !rule.fails(stats.min);
      case 'max': return stats.max !== undefined && !rule.fails(stats.max);
      case 'not_in_future': return stats.max !== undefined && !rule.fails(stats.max);
      default: return false;
    }
  });
}

function nothingToCheck(plan: CheckPlan, column: ColumnPlan): boolean {
  return column.rules.length === 0 && !column.mustHaveValue && !column.spec.requiredWhen && plan.freshness?.column !== column.spec.name;
}

/** A column that must have a value is settled only by a null count of zero. */
function nullsSettled(column: ColumnPlan, stats: ChunkStatistics): boolean {
  return !(column.mustHaveValue || column.spec.requiredWhen) || stats.nullCount === 0;
}
