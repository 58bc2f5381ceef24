import type { ChunkStatistics, RowGroupInfo } from '../formats/table-file.js';
import type { CheckPlan, ColumnPlan } from './check-plan.js';
import { statisticsSpan, valuesSpan } from './observed-ranges.js';
import type { PartitionState } from './partition-state.js';
import type { ReadableColumn } from './schema-check.js';

/** Told the span of each ranged column a row group settles without decoding it (see observed-ranges.ts). */
export type SpanSink = Pick<PartitionState, 'spans' | 'observeSpan'>;

/**
 * Decides, from what a row group's footer and dictionaries prove, which columns must be decoded.
 * A column is skipped only when every one of its rules is proven for the whole row group;
 * anything unproven (no statistics, a bound crossed, a dictionary entry that breaks a rule) is
 * decoded, and a decoded column yields exact counts and samples.
 */
export async function columnsToDecode(plan: CheckPlan, readable: readonly ReadableColumn[], group: RowGroupInfo, sink?: SpanSink): Promise<string[]> {
  // A reference row's expected values are one row's: statistics prove bounds, not them (reference-rows.ts).
  const needed = new Set<string>([...plan.grain, ...plan.columns.filter((c) => c.spec.unique).map((c) => c.spec.name), ...(plan.referenceRows?.columns ?? [])]);
  const proofs = new Map<string, Proof>();
  for (const { plan: column, absent } of readable) {
    // A column the file lacks is not read, but its required_when condition must be, to count its rows.
    if (absent) {
      if (column.spec.requiredWhen) needed.add(column.spec.requiredWhen.column);
      continue;
    }
    const proof = needed.has(column.spec.name) ? undefined : await proven(plan, column, group);
    if (proof) proofs.set(column.spec.name, proof);
    else {
      needed.add(column.spec.name);
      if (column.spec.requiredWhen) needed.add(column.spec.requiredWhen.column);
    }
  }
  // After the loop: a column proven early may yet be decoded as another's required_when condition.
  for (const [name, proof] of proofs) if (sink?.spans.has(name) && !needed.has(name)) settleSpan(group, name, proof, sink);
  return readable.filter((c) => !c.absent && needed.has(c.plan.spec.name)).map((c) => c.plan.spec.name);
}

/** How a column's rules were proven: the dictionary's entries when by them. */
type Proof = { readonly by: 'statistics' } | { readonly by: 'dictionary'; readonly values: readonly unknown[] };

async function proven(plan: CheckPlan, column: ColumnPlan, group: RowGroupInfo): Promise<Proof | undefined> {
  // A column with nothing to check (an optional one without rules) is never decoded, statistics or not.
  if (nothingToCheck(plan, column)) return { by: 'statistics' };
  const stats = group.statistics.get(column.spec.name);
  if (provenByStatistics(plan, column, stats)) return { by: 'statistics' };
  // The dictionary holds values, not nulls or the newest value: those stay with the statistics.
  if (!stats || !nullsSettled(column, stats) || plan.freshness?.column === column.spec.name || !group.dictionary) return undefined;
  const values = await group.dictionary(column.spec.name);
  return values !== undefined && values.every((value) => column.rules.every((rule) => !rule.fails(value))) ? { by: 'dictionary', values } : undefined;
}

/**
 * A settled column's span: its dictionary's when the dictionary proved it (tighter than statistics
 * whose bound failed a rule, and the only one for floats, whose footer bounds are dropped), its
 * statistics' otherwise.
 */
function settleSpan(group: RowGroupInfo, name: string, proof: Proof, sink: SpanSink): void {
  const span = proof.by === 'dictionary' ? valuesSpan(proof.values) : statisticsSpan(group.statistics.get(name));
  if (span) sink.observeSpan(name, span.least, span.greatest);
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
