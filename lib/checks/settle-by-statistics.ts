import type { ChunkStatistics, RowGroupInfo } from '../formats/table-file.js';
import type { CheckPlan, ColumnPlan } from './check-plan.js';
import type { ReadableColumn } from './schema-check.js';

/**
 * Decides, from a row group's footer statistics, which columns must be decoded. A column is
 * skipped only when the statistics prove every one of its rules for the whole row group;
 * anything unproven (no statistics, a bound crossed, a rule that needs values) is decoded, and a
 * decoded column yields exact counts and samples.
 */
export function columnsToDecode(plan: CheckPlan, readable: readonly ReadableColumn[], group: RowGroupInfo): string[] {
  const needed = new Set<string>([...plan.grain, ...plan.columns.filter((c) => c.spec.unique).map((c) => c.spec.name)]);
  for (const { plan: column } of readable) {
    if (needed.has(column.spec.name) || !provenByStatistics(plan, column, group.statistics.get(column.spec.name))) {
      needed.add(column.spec.name);
      if (column.spec.requiredWhen) needed.add(column.spec.requiredWhen.column);
    }
  }
  return readable.map((c) => c.plan.spec.name).filter((name) => needed.has(name));
}

export function provenByStatistics(plan: CheckPlan, column: ColumnPlan, stats: ChunkStatistics | undefined): boolean {
  if (!stats) return false;
  const { spec } = column;
  if ((column.mustHaveValue || spec.requiredWhen) && stats.nullCount !== 0) return false;
  if (plan.freshness?.column === spec.name && (stats.max === undefined || !stats.maxExact)) return false;
  return column.rules.every((rule) => {
    switch (rule.rule) {
      case 'min': return stats.min !== undefined && !rule.fails(stats.min);
      case 'max': return stats.max !== undefined && !rule.fails(stats.max);
      case 'not_in_future': return stats.max !== undefined && !rule.fails(stats.max);
      default: return false;
    }
  });
}
