import type { ColumnType } from '../contract/column-type.js';
import type { DataFormat } from '../contract/model.js';
import type { Choice } from './choice.js';

/**
 * A proposed contract before it is YAML: each rule with what it was inferred from, so the
 * emitted file can say so in comments and a failed check can take the rule back out.
 */
export interface ProposedContract {
  readonly name: string;
  readonly major: number;
  readonly format: DataFormat;
  readonly partition: string;
  readonly partitionNote: string;
  /** `produces.csv`: the keys of the samples' dialect that differ from the defaults, and why each. */
  readonly csv?: { readonly values: Readonly<Record<string, unknown>>; readonly notes: readonly string[] };
  /** One line on what was read: partitions, files, rows. */
  readonly summary: string;
  readonly columns: readonly ProposedColumn[];
  /** Columns seen but not declared, each with why. */
  readonly leftOut: readonly { readonly name: string; readonly reason: string }[];
  readonly grain: readonly string[];
  /** Why this grain (see choice.ts), and anything relaxing it later added. */
  readonly grainChoice: Choice;
  readonly grainNotes: readonly string[];
  /** Why this freshness column, or why none. */
  readonly freshnessChoice: Choice;
  readonly freshness?: {
    readonly column: string;
    readonly maxLagHours: number;
    readonly notes: readonly string[];
    /** Its newest value per partition (epoch ms): the check time of each sample's verification. */
    readonly newest: readonly number[];
  };
  readonly volume?: { readonly minRows?: number; readonly maxRows?: number; readonly note: string };
}

export interface ProposedColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly required: boolean;
  readonly enum?: readonly string[];
  /** Numeric columns only: temporal ranges are noted, not made rules (see infer-column.ts). */
  readonly min?: number;
  readonly max?: number;
  readonly notInFuture?: boolean;
  /** Why it looks like an identifier: its name (`trip_id`), or every value a `UUID` or `ULID`. */
  readonly idLike?: 'name' | 'UUID' | 'ULID';
  /** What each rule (or its absence) was inferred from, one comment line each. */
  readonly notes: readonly string[];
}
