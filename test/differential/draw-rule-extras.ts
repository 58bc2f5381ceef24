import { fileSeed } from '../fuzz/prng.js';
import type { SpecContract } from './contract-spec.js';
import type { DrawnPartition } from './draw-partition.js';
import { drawReferences } from './draw-references.js';
import { drawSeverity } from './draw-severity.js';
import { drawSlaRules } from './draw-sla-rules.js';
import { Random } from './random-tools.js';
import type { SpecFacts } from './spec-facts.js';

/**
 * The rules of issue 17 on top of a drawn partition, each from a stream of its own so the
 * partition a seed drew before stays the same: references with their keys (not on bulk seeds,
 * which leave keys out), warn_lag_hours and volume_vs_history with a history, then severities.
 * The row tolerance is drawn later, aimed at the invalid rows the oracle finds (compare-engines.ts).
 */
export function drawRuleExtras(seed: number, partition: DrawnPartition, rows: number, bulk: boolean): { contract: SpecContract; facts: SpecFacts } {
  const referenced = bulk ? { contract: partition.contract } : drawReferences(partition.contract, partition.tables, new Random(fileSeed(seed, 5)));
  const { sla, history } = drawSlaRules(referenced.contract, partition.tables, rows, new Random(fileSeed(seed, 4)));
  const contract = drawSeverity({ ...referenced.contract, sla }, new Random(fileSeed(seed, 3)));
  const facts: SpecFacts = { ...(history ? { history } : {}), ...(referenced.references ? { references: referenced.references } : {}) };
  return { contract, facts };
}
