import type { ColumnSpec, Contract, DataFormat } from '../contract/model.js';
import { valueRulesFor, type ValueRule } from './value-rules.js';

/**
 * What a run checks, built once from a contract and the check time. Engines execute a plan; they
 * never read the contract's YAML shape, so a contract from any source yields the same checks.
 */
export interface CheckPlan {
  readonly contract: { readonly name: string; readonly version: string };
  readonly now: number;
  readonly format: DataFormat;
  readonly columns: readonly ColumnPlan[];
  readonly extraColumns: 'allow' | 'reject';
  readonly grain: readonly string[];
  readonly volume: { readonly minRows?: number; readonly maxRows?: number };
  readonly freshness?: { readonly column: string; readonly maxLagHours: number };
}

export interface ColumnPlan {
  readonly spec: ColumnSpec;
  /** Required, or part of the grain: a null is a `required` violation. */
  readonly mustHaveValue: boolean;
  readonly rules: readonly ValueRule[];
}

export function buildCheckPlan(contract: Contract, now: number): CheckPlan {
  const grain = contract.schema.grain;
  const sla = contract.sla;
  return {
    contract: { name: contract.name, version: contract.version.text },
    now,
    format: contract.produces.format,
    columns: contract.schema.columns.map((spec) => ({
      spec,
      mustHaveValue: spec.required || grain.includes(spec.name),
      rules: valueRulesFor(spec, now),
    })),
    extraColumns: contract.schema.extraColumns,
    grain,
    volume: { minRows: sla?.minRows, maxRows: sla?.maxRows },
    freshness: sla?.freshnessColumn !== undefined && sla.maxLagHours !== undefined
      ? { column: sla.freshnessColumn, maxLagHours: sla.maxLagHours }
      : undefined,
  };
}
