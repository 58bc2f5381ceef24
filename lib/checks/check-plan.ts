import type { ColumnReference, ColumnSpec, Contract, DataFormat, RowTolerance, VolumeVsHistory } from '../contract/model.js';
import { DEFAULT_CSV_DIALECT, dialectDifferences, type CsvDialect } from '../contract/csv-dialect.js';
import { formatTimestamp } from '../contract/temporal.js';
import { judgedAt } from '../sla/partition-due.js';
import { coerceFor } from './coerce-value.js';
import { referenceRowsPlan, type ReferenceRowsPlan } from './reference-rows.js';
import type { PlanFacts, ReferenceKeys, VolumeHistory } from './plan-facts.js';
import { severityOf, type SeverityOf } from './rule-severity.js';
import { valueRulesFor, type JudgedAt, type ValueRule } from './value-rules.js';

/**
 * What a run checks, built once from a contract, the check time and what was read from the lake
 * before (history, referenced keys). Engines execute a plan; they never read the contract's YAML
 * shape, so a contract from any source yields the same checks.
 */
export interface CheckPlan {
  readonly contract: { readonly name: string; readonly version: string };
  /** When the check runs: the report's `checked_at`. */
  readonly now: number;
  /**
   * The moment freshness and `not_in_future` are judged at: `now`, or the partition's due time
   * when that came first (lib/sla/partition-due.ts), and how messages name it.
   */
  readonly judgedAt: JudgedAt;
  readonly format: DataFormat;
  /** How the contract says its CSV files are written (`produces.csv`), where it says. */
  readonly csv?: CsvDialect;
  readonly columns: readonly ColumnPlan[];
  readonly extraColumns: 'allow' | 'warn' | 'reject';
  readonly grain: readonly string[];
  readonly volume: { readonly minRows?: number; readonly maxRows?: number };
  readonly history?: { readonly rule: VolumeVsHistory; readonly facts?: VolumeHistory };
  readonly freshness?: { readonly column: string; readonly maxLagHours?: number; readonly warnLagHours?: number };
  readonly references: readonly ReferencePlan[];
  /** `reference_rows`, looked up during the grain pass (reference-rows.ts); absent when the contract lists none. */
  readonly referenceRows?: ReferenceRowsPlan;
  /** `on_violation`: rows breaking only row-level error rules may be withheld, up to this many. */
  readonly tolerance?: RowTolerance;
  readonly severityOf: SeverityOf;
}

export interface ColumnPlan {
  readonly spec: ColumnSpec;
  /** Required, or part of the grain: a null is a `required` violation. */
  readonly mustHaveValue: boolean;
  readonly rules: readonly ValueRule[];
  /**
   * What a row that lacks the column reads as (a file without the column, a JSON line without
   * the key): its `default`, in the checked representation, or null, as Parquet readers treat a
   * column added after the file was written.
   */
  readonly absentValue: unknown;
}

export interface ReferencePlan {
  readonly column: string;
  readonly target: ColumnReference;
  /** Absent when nobody read them (a run without a lake): the rule then fails, saying so. */
  readonly keys?: ReferenceKeys;
}

export function buildCheckPlan(contract: Contract, now: number, facts: PlanFacts = {}): CheckPlan {
  const at = judgedAt(contract, now, facts.partition);
  const judged: JudgedAt = at < now ? { at, text: `${formatTimestamp(at)}, when ${facts.partition} was due`, due: true } : { at, text: formatTimestamp(at), due: false };
  const grain = contract.schema.grain;
  const sla = contract.sla;
  const column = sla?.freshnessColumn;
  const lags = sla?.maxLagHours !== undefined || sla?.warnLagHours !== undefined;
  return {
    contract: { name: contract.name, version: contract.version.text },
    now,
    judgedAt: judged,
    format: contract.produces.format,
    ...(contract.produces.csv ? { csv: contract.produces.csv } : {}),
    columns: contract.schema.columns.map((spec) => ({
      spec,
      mustHaveValue: spec.required || grain.includes(spec.name),
      rules: valueRulesFor(spec, judged),
      absentValue: spec.default === undefined ? null : coerceFor('dynamic', spec.type)(spec.default),
    })),
    extraColumns: contract.schema.extraColumns,
    grain,
    volume: { minRows: sla?.minRows, maxRows: sla?.maxRows },
    ...(sla?.volumeVsHistory ? { history: { rule: sla.volumeVsHistory, ...(facts.history ? { facts: facts.history } : {}) } } : {}),
    freshness: column !== undefined && lags ? { column, maxLagHours: sla?.maxLagHours, warnLagHours: sla?.warnLagHours } : undefined,
    references: contract.schema.columns.flatMap((spec) => {
      if (!spec.references) return [];
      const keys = facts.references?.get(spec.name);
      return [{ column: spec.name, target: spec.references, ...(keys ? { keys } : {}) }];
    }),
    ...referenceRowsField(contract),
    // Withheld rows are cut out of a CSV by a scanner that knows no dialect yet (lib/rows): where the
    // contract declares one, rows are not withheld, and a batch with invalid rows is quarantined whole.
    ...(contract.onViolation && !declaresDialect(contract) ? { tolerance: contract.onViolation } : {}),
    severityOf: severityOf(contract),
  };
}

/** What a reader of the plan's text files needs of the contract: the CSV dialect and the columns in order. */
export function textLayout(plan: CheckPlan): { readonly csv?: CsvDialect; readonly columns: readonly string[] } {
  return { ...(plan.csv ? { csv: plan.csv } : {}), columns: plan.columns.map((c) => c.spec.name) };
}

function referenceRowsField(contract: Contract): { referenceRows?: ReferenceRowsPlan } {
  const plan = referenceRowsPlan(contract);
  return plan ? { referenceRows: plan } : {};
}

function declaresDialect(contract: Contract): boolean {
  const csv = contract.produces.csv;
  return csv !== undefined && dialectDifferences(DEFAULT_CSV_DIALECT, csv).length > 0;
}
