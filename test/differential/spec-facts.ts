import type { PlanFacts, ReferenceKeys } from '../../lib/checks/plan-facts.js';

/**
 * What a seed says the lake holds, for the rules that compare with other data: the published
 * partitions' row counts (newest first) and each referencing column's keys, spelled as
 * referenceKey spells them (strings as they are, integers and epoch milliseconds as digits).
 */
export interface SpecFacts {
  readonly history?: readonly HistoryPartition[];
  readonly references?: ReadonlyMap<string, SpecReferenceKeys>;
}

export interface HistoryPartition {
  readonly partition: string;
  readonly rows: number;
}

/** A referenced column's keys, or why the lake could not give them (the rule then fails the batch). */
export type SpecReferenceKeys = { readonly keys: readonly string[] } | { readonly unavailable: string };

export const HISTORY_SOURCE = 's3://lake/published/diff/v1/';
export const REFERENCE_SOURCE = 's3://lake/published/customers/v1/dt=2026-11-29/';

/** The facts as contract-gate takes them (lib/checks/plan-facts.ts). */
export function planFacts(facts: SpecFacts): PlanFacts {
  const references = facts.references && new Map([...facts.references].map(([column, keys]) => [column, referenceKeys(keys)]));
  return {
    ...(facts.history ? { history: { source: HISTORY_SOURCE, partitions: facts.history } } : {}),
    ...(references ? { references } : {}),
  };
}

function referenceKeys(keys: SpecReferenceKeys): ReferenceKeys {
  return 'keys' in keys ? { source: REFERENCE_SOURCE, keys: new Set(keys.keys) } : { source: REFERENCE_SOURCE, unavailable: keys.unavailable };
}

/** The facts as JSON, for a failing seed's report and the files `--keep` leaves. */
export function factsJson(facts: SpecFacts): unknown {
  return {
    ...(facts.history ? { history: facts.history } : {}),
    ...(facts.references ? { references: Object.fromEntries(facts.references) } : {}),
  };
}
