import { ExactValue } from '../contract/exact-value.js';

/**
 * What a run knows beyond the contract and the data: facts read from the lake before the
 * checks start (lib/lake/ reads them), so the rules that compare with other partitions stay pure.
 */
export interface PlanFacts {
  /**
   * The partition path being checked (e.g. `dt=2026-11-29`), when known: freshness and
   * `not_in_future` are judged as of its due time when that came before the check.
   */
  readonly partition?: string;
  /** For `volume_vs_history`: published partitions of the same major before this one, newest first. */
  readonly history?: VolumeHistory;
  /** For `references`: the referenced keys, by the name of the referencing column. */
  readonly references?: ReadonlyMap<string, ReferenceKeys>;
}

export interface VolumeHistory {
  /** Already without skip dates and without the partition being checked, at most `lookback` of them. */
  readonly partitions: readonly { readonly partition: string; readonly rows: number }[];
  /** Where they were read, for messages, e.g. `s3://lake/published/orders/v1/`. */
  readonly source: string;
}

/** The keys of one referenced column, or why they could not be had (the rule then fails the batch). */
export type ReferenceKeys =
  | { readonly source: string; readonly keys: ReadonlySet<string> }
  | { readonly source: string; readonly unavailable: string };

/** The most keys a reference loads into memory: a referenced contract whose max_rows is higher is refused by lint. */
export const MAX_REFERENCE_KEYS = 10_000_000;

/**
 * One spelling per value, so a key read from one file matches the same key read from another
 * writer's: an INT64 arrives as a bigint from one reader and a number from another.
 */
export function referenceKey(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  if (value instanceof Date) return String(value.getTime());
  // A decimal past 15 digits or a time finer than a millisecond, in its one canonical spelling.
  if (value instanceof ExactValue) return value.toString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}
