import type { ColumnType } from '../../lib/contract/column-type.js';
import type { DataFormat } from '../../lib/contract/model.js';

/**
 * The generator's own description of a contract: what it means, written down before any YAML.
 * The oracle reads this, never contract-gate's parsed Contract, so a loader bug shows up as a
 * disagreement instead of being copied into the expectation.
 */
export type Scalar = string | number | boolean;

/** A min/max bound: its value (a number, or epoch ms for temporal columns) and how YAML spells it. */
export interface Bound {
  readonly value: number;
  readonly yaml: string;
}

export interface SpecColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly required: boolean;
  readonly requiredWhen?: { readonly column: string; readonly in: readonly Scalar[] };
  readonly enum?: readonly string[];
  readonly min?: Bound;
  readonly max?: Bound;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly unique: boolean;
  readonly notInFuture: boolean;
}

export interface SpecSla {
  readonly minRows?: number;
  readonly maxRows?: number;
  readonly freshness?: { readonly column: string; readonly maxLagHours: number };
}

export interface SpecContract {
  readonly name: string;
  readonly format: DataFormat;
  readonly columns: readonly SpecColumn[];
  readonly grain: readonly string[];
  readonly extraColumns: 'allow' | 'reject';
  readonly sla: SpecSla;
  /** The check time (epoch ms) for not_in_future and freshness. */
  readonly now: number;
}

/** Required, or part of the grain: a null is a `required` violation (README, "Violations"). */
export function mustHaveValue(contract: SpecContract, column: SpecColumn): boolean {
  return column.required || contract.grain.includes(column.name);
}
