import type { ObjectInfo } from '../storage/object-store.js';

/** Where the gate's verdict on a partition is kept: a publish's `_SUCCESS`, or a quarantined attempt's folder. */
export type HistorySource = 'published' | 'quarantined';

/** A file exactly as the gate judged it: a replay reads these bytes and no others. */
export interface PinnedFile {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
}

/**
 * One verdict of the gate found in the bucket, before its record is read: enough to place it in
 * time by its path, so records of partitions outside the window are never fetched.
 */
export interface HistoryCandidate {
  readonly source: HistorySource;
  /** The partition path, e.g. `dt=2026-11-29`. */
  readonly partition: string;
  /** The folder the files sit in, ending in `/`: sample paths are shown relative to it. */
  readonly folder: string;
  /** `_SUCCESS` or `_REPORT.json`, as listed. */
  readonly record: ObjectInfo;
  /** A quarantined attempt's data files, as listed (a publish's are the ones its `_SUCCESS` names). */
  readonly listed?: readonly ObjectInfo[];
}

/** A candidate with its record read: what the gate judged, when, and what it said. */
export interface HistoryEntry extends HistoryCandidate {
  readonly attempt: string | null;
  /** The instant the gate judged it (epoch ms): the replay judges it as of then. */
  readonly decidedAt?: number;
  readonly files: readonly PinnedFile[];
  /** The gate's own one-line account then, e.g. `failed: 7 violations: ...`. */
  readonly thenSummary?: string;
  /** Published although its checks failed (an owner's release of a quarantined attempt). */
  readonly released?: boolean;
  /** Why the record cannot be replayed (not a manifest the gate writes, gone meanwhile). */
  readonly problem?: string;
}

/** A record with nothing to replay, kept so the run shows it rather than skipping it silently. */
export function unreadableEntry(candidate: HistoryCandidate, problem: string): HistoryEntry {
  return { ...candidate, attempt: null, files: [], problem };
}

/** The instant an ISO-8601 field names, or undefined when the field is absent or not a time. */
export function instantOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const millis = Date.parse(value);
  return Number.isNaN(millis) ? undefined : millis;
}
