/**
 * What the status page shows, read from what the gate already writes (`_SUCCESS`, `_REPORT.json`,
 * staging objects and `_gate/` records): plain data, so one reader feeds `serve`'s `/_gate/` and
 * `contract-gate status --out`, and the page renders it without reading anything itself.
 */
export interface LakeStatus {
  /** e.g. `s3://lake`: which lake this is. */
  readonly location: string;
  /** ISO-8601 seconds: the clock the page was made at (missed and waiting are judged by it). */
  readonly generated_at: string;
  /** Sorted by dataset name, then major version. */
  readonly datasets: readonly DatasetStatus[];
  /** Newest first, at most MAX_NOTICES. */
  readonly notices: readonly NoticeEntry[];
  /** Records that could not be read (not JSON, not the gate's): shown, never thrown. */
  readonly problems: readonly string[];
}

export const MAX_PARTITIONS = 30;
export const MAX_NOTICES = 50;

export interface DatasetStatus {
  readonly dataset: string;
  readonly major: number;
  /** The contract of this major in the registry, when there is one. */
  readonly contract?: { readonly version: string; readonly owner: string; readonly minRows?: number; readonly maxRows?: number };
  /** The last MAX_PARTITIONS partitions, oldest first (by partition time, then path). */
  readonly cells: readonly PartitionCell[];
}

/**
 * One partition, in the state that matters most to a consumer: published (with or without
 * warnings) first, then a drop still in staging, then the latest quarantined attempt, then a
 * partition the SLA calendar expected and never got (missed) or is still waiting for.
 */
export type CellState = 'published' | 'published_with_warnings' | 'quarantined' | 'in_staging' | 'missed_sla' | 'waiting';

export interface PartitionCell {
  readonly partition: string;
  readonly state: CellState;
  /** Published rows (from `_SUCCESS`), or the rows the latest quarantined attempt held. */
  readonly rows?: number;
  /** ISO-8601: when it was published, checked, or (missed, waiting) its deadline. */
  readonly at?: string;
  /** One line for a person: the report's summary, the staged files, the deadline. */
  readonly detail: string;
  /** The SLA probe paged that it was missed (`_gate/sla/.../sla_missed.json`), though it may have arrived since. */
  readonly late?: boolean;
  /** Quarantined attempts of this partition, the latest included. */
  readonly attempts?: number;
  /** What the cell links to: the `_SUCCESS`, the report page (or `_REPORT.json`), or the staging listing. */
  readonly link: StatusLink;
}

/** A key in the lake's bucket: an object, or a prefix to list. Pages turn it into an address (see LinkStyle). */
export interface StatusLink {
  readonly kind: 'object' | 'listing';
  readonly key: string;
}

export type NoticeKind = 'verdict' | 'sla_missed' | 'sla_recovered' | 'stale' | 'abandoned' | 'sunset_reminder';

/** One notice claim under `_gate/`: the gate's and the probe's record that a notice went out. */
export interface NoticeEntry {
  /** ISO-8601: the claim's last-modified time. */
  readonly at: string;
  readonly kind: NoticeKind;
  readonly dataset: string;
  /** The major version's `v1`, or the version a sunset reminder is about. */
  readonly version: string;
  readonly partition?: string;
  readonly subject: string;
  /** `sending`: claimed, not yet confirmed sent (a handler died, or is sending now). */
  readonly state: 'sent' | 'sending';
  readonly key: string;
}
