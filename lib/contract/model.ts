import type { ColumnType } from './column-type.js';
import type { CsvDialect } from './csv-dialect.js';

/**
 * A loaded, validated contract. Everything downstream (check plan, gate, probe, diff) reads this
 * shape and never the YAML. Temporal bounds are already epoch milliseconds (UTC).
 */
export interface Contract {
  readonly name: string;
  readonly version: SemVer;
  readonly status: 'active' | 'deprecated' | 'retired';
  /** ISO date (YYYY-MM-DD) after which a deprecated version is retired. */
  readonly sunset?: string;
  readonly owner: { readonly team: string; readonly notify: readonly string[] };
  readonly description?: string;
  /** `csv`: how a CSV is written (`produces.csv`), present only where the contract declares it. */
  readonly produces: { readonly format: DataFormat; readonly partition: string; readonly csv?: CsvDialect };
  readonly schema: ContractSchema;
  readonly sla?: Sla;
  /** Who reads this dataset: told of breaking changes and deprecation, and named by `diff`. */
  readonly consumers: readonly Consumer[];
  readonly compat: { readonly mode: 'backward' | 'forward' | 'full' | 'none' };
  /** Where the gate loaded it from and the SHA-256 of those bytes: recorded with every decision. */
  readonly origin?: ContractOrigin;
  /** How many rows may break row-level rules before the whole batch is quarantined (`on_violation`). */
  readonly onViolation?: RowTolerance;
  /** `reference_rows`: known rows (by grain key) and the values they must carry; absent when none. */
  readonly referenceRows?: readonly ReferenceRow[];
}

/**
 * A known row, e.g. a reference order, and what it must hold: the semantic test a schema check
 * cannot make (an amount that turned post-tax still has the amount's type). Values are kept as
 * written, a number or its text where a double would not hold it (an int64 past 2^53, a decimal
 * past 15 digits); the check plan reads them as the column's type (lib/checks/reference-rows.ts).
 */
export interface ReferenceRow {
  /** One value per grain column, in grain order. */
  readonly key: readonly ReferenceCell[];
  readonly expect: readonly ExpectedCell[];
  /** The partition must hold a row with this key (`reference_missing` when none does). */
  readonly required: boolean;
  /** `warn` reports a mismatch or a missing row without blocking. @default error */
  readonly severity?: Severity;
  readonly description?: string;
}

export type ReferenceScalar = string | number | boolean;

export interface ReferenceCell {
  readonly column: string;
  readonly value: ReferenceScalar;
}

/**
 * An expected value. A number of a numeric column matches within `absolute` or within `relative`
 * times the expected value's magnitude, whichever is wider; with neither, exactly.
 */
export interface ExpectedCell extends ReferenceCell {
  readonly absolute?: number;
  readonly relative?: number;
}

/** A rule's weight: a failing `warn` rule is reported but does not block the publish. */
export type Severity = 'error' | 'warn';

/**
 * `on_violation`: invalid rows within the tolerance are withheld (dead-lettered) and the valid
 * rows published. Exactly one of the two is set.
 */
export type RowTolerance = { readonly rowTolerance: number } | { readonly maxInvalidRows: number };

/** The rules of a column a `severity` map may name; `severity: warn` on a column means all of them. */
export const COLUMN_SEVERITY_RULES = ['required', 'required_when', 'type', 'enum', 'min', 'max', 'pattern', 'length', 'not_in_future', 'unique', 'references'] as const;
export type ColumnSeverityRule = (typeof COLUMN_SEVERITY_RULES)[number];
/** `schema.severity`: the grain, and columns the contract does not list. */
export const SCHEMA_SEVERITY_RULES = ['grain', 'extra_columns'] as const;
export type SchemaSeverityRule = (typeof SCHEMA_SEVERITY_RULES)[number];
/** `sla.severity`: the batch-level rules of the SLA. */
export const SLA_SEVERITY_RULES = ['min_rows', 'max_rows', 'volume_vs_history', 'freshness'] as const;
export type SlaSeverityRule = (typeof SLA_SEVERITY_RULES)[number];

/** Only rules set to `warn` are listed; an absent rule is an error. */
export type SeverityMap<Rule extends string> = { readonly [K in Rule]?: Severity };

export interface ContractOrigin {
  /** e.g. `s3://lake/_contracts/orders/v1/1.2.0.yaml`, or the bundled file's path. */
  readonly location: string;
  readonly sha256: string;
  /** When the version in force was registered (ISO-8601), for a contract read from the registry. */
  readonly registered_at?: string;
}

export interface Consumer {
  readonly team: string;
  readonly notify: readonly string[];
  /** The columns this consumer reads; empty means it did not say. */
  readonly columns: readonly string[];
}

export type DataFormat = 'parquet' | 'csv' | 'jsonl';

export interface SemVer {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly text: string;
}

export interface ContractSchema {
  readonly grain: readonly string[];
  /** `warn` reports columns the contract does not list without blocking; `reject` fails the batch. */
  readonly extraColumns: 'allow' | 'warn' | 'reject';
  readonly columns: readonly ColumnSpec[];
  readonly severity?: SeverityMap<SchemaSeverityRule>;
}

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  /** Declared text of the type, for messages. */
  readonly typeText: string;
  readonly required: boolean;
  readonly requiredWhen?: { readonly column: string; readonly in: readonly (string | number | boolean)[] };
  readonly enum?: readonly (string | number)[];
  /** Numbers for numeric columns; epoch milliseconds for date and timestamp columns. */
  readonly min?: number;
  readonly max?: number;
  /**
   * The bound exactly, as decimal text (epoch ms for dates and timestamps), where `min`/`max`, the
   * nearest doubles, are not it: a decimal's 16th digit, an integer past 2^53, a time finer than a
   * millisecond. The checks and the compat classifier compare with it (see exact-bounds.ts).
   */
  readonly exactMin?: string;
  readonly exactMax?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly unique: boolean;
  readonly notInFuture: boolean;
  /** What readers should assume for rows written before the column existed. */
  readonly default?: string | number | boolean;
  readonly description?: string;
  /** Per rule; `severity: warn` on the column is loaded as every rule of COLUMN_SEVERITY_RULES set to warn. */
  readonly severity?: SeverityMap<ColumnSeverityRule>;
  /** Every non-null value must exist in another dataset's column (its latest published partition, or `partition`). */
  readonly references?: ColumnReference;
}

export interface ColumnReference {
  readonly contract: string;
  readonly column: string;
  /** The referenced contract's major version. @default the highest active major the registry holds */
  readonly major?: number;
  /** A partition path such as `dt=2026-11-30`. @default the latest published partition */
  readonly partition?: string;
}

export interface Sla {
  /** The clock SLA: when a due partition must be published, in `timezone`. */
  readonly schedule: SlaSchedule;
  /** HH:MM local time (for hourly schedules 00:MM, minutes past the hour). */
  readonly arrivalBy?: string;
  /** How many schedule periods before the deadline's own the due partition lies (default 1). */
  readonly partitionLag: number;
  readonly graceMinutes: number;
  /** Partition dates (YYYY-MM-DD) no one expects: holidays. */
  readonly skipDates: readonly string[];
  readonly timezone?: string;
  readonly maxLagHours?: number;
  readonly freshnessColumn?: string;
  readonly minRows?: number;
  readonly maxRows?: number;
  /** A lag beyond this many hours (and within max_lag_hours) is a warning. */
  readonly warnLagHours?: number;
  readonly volumeVsHistory?: VolumeVsHistory;
  readonly severity?: SeverityMap<SlaSeverityRule>;
}

/**
 * The partition's row count against the median of the last `lookback` published partitions of the
 * same major (skip dates left out); skipped, with a note, with fewer than 3 of them.
 */
export interface VolumeVsHistory {
  readonly lookback: number;
  readonly minRatio?: number;
  readonly maxRatio?: number;
}

export type SlaSchedule = { readonly kind: 'daily' | 'weekdays' | 'hourly' } | { readonly kind: 'cron'; readonly expression: string };
