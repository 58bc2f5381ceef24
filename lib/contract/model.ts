import type { ColumnType } from './column-type.js';

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
  readonly produces: { readonly format: DataFormat; readonly partition: string };
  readonly schema: ContractSchema;
  readonly sla?: Sla;
  /** Who reads this dataset: told of breaking changes and deprecation, and named by `diff`. */
  readonly consumers: readonly Consumer[];
  readonly compat: { readonly mode: 'backward' | 'forward' | 'full' | 'none' };
  /** Where the gate loaded it from and the SHA-256 of those bytes: recorded with every decision. */
  readonly origin?: ContractOrigin;
}

export interface ContractOrigin {
  /** e.g. `s3://lake/_contracts/orders/v1/1.2.0.yaml`, or the bundled file's path. */
  readonly location: string;
  readonly sha256: string;
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
  readonly extraColumns: 'allow' | 'reject';
  readonly columns: readonly ColumnSpec[];
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
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly unique: boolean;
  readonly notInFuture: boolean;
  /** What readers should assume for rows written before the column existed. */
  readonly default?: string | number | boolean;
  readonly description?: string;
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
}

export type SlaSchedule = { readonly kind: 'daily' | 'weekdays' | 'hourly' } | { readonly kind: 'cron'; readonly expression: string };
