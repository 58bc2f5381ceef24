import type { ColumnType } from '../../lib/contract/column-type.js';
import type { DataFormat } from '../../lib/contract/model.js';

/**
 * The generator's own description of a contract: what it means, written down before any YAML.
 * The oracle reads this, never contract-gate's parsed Contract, so a loader bug shows up as a
 * disagreement instead of being copied into the expectation.
 */
export type Scalar = string | number | bigint | boolean;

/**
 * A min/max bound: its value (a number, or epoch ms for temporal columns; approximate past 2^53),
 * how YAML spells it, and the exact SQL literal the oracle compares with (see orderedValue).
 */
export interface Bound {
  readonly value: number;
  readonly yaml: string;
  readonly sql: string;
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
  readonly references?: { readonly contract: string; readonly column: string };
  readonly severity?: SpecColumnSeverity;
}

export type SpecSeverity = 'error' | 'warn';

/**
 * How a column's `severity` is written: `warn` (every rule it declares), or a map of rule to
 * severity. A map may name a rule the column does not declare: the loader warns and ignores it.
 */
export type SpecColumnSeverity = { readonly all: 'warn' } | { readonly rules: Readonly<Record<string, SpecSeverity>> };

export interface SpecSla {
  readonly minRows?: number;
  readonly maxRows?: number;
  /** At least one of the lags; warn_lag_hours below max_lag_hours. */
  readonly freshness?: { readonly column: string; readonly maxLagHours?: number; readonly warnLagHours?: number };
  readonly volumeVsHistory?: { readonly lookback: number; readonly minRatio?: number; readonly maxRatio?: number };
  /** `sla.severity`, by rule: min_rows, max_rows, volume_vs_history, freshness. */
  readonly severity?: Readonly<Record<string, SpecSeverity>>;
}

/** `on_violation`: a fraction as the YAML writes it (`0.02`), or a number of rows. */
export type SpecTolerance = { readonly fraction: string } | { readonly rows: number };

export interface SpecContract {
  readonly name: string;
  readonly format: DataFormat;
  readonly columns: readonly SpecColumn[];
  readonly grain: readonly string[];
  readonly extraColumns: 'allow' | 'warn' | 'reject';
  /** `schema.severity`: grain, extra_columns. */
  readonly schemaSeverity?: Readonly<Record<string, SpecSeverity>>;
  readonly sla: SpecSla;
  readonly tolerance?: SpecTolerance;
  /** The check time (epoch ms) for not_in_future and freshness. */
  readonly now: number;
}

/** Required, or part of the grain: a null is a `required` violation (README, "Violations"). */
export function mustHaveValue(contract: SpecContract, column: SpecColumn): boolean {
  return column.required || contract.grain.includes(column.name);
}
