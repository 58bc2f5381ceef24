import type { RowReason } from '../checks/invalid-rows.js';
import type { ContractOrigin, DataFormat } from '../contract/model.js';
import type { GateReport } from './gate-report.js';
import type { DropAddress } from './gate-layout.js';
import type { StagedFile } from './read-drop.js';

/**
 * What the gate decided for one drop, written once with a conditional create under `_gate/`.
 * Every handler that sees the drop afterwards carries out this record, not its own verdict, so
 * repeated and concurrent deliveries converge on one outcome.
 */
export interface Decision {
  readonly format: 'contract-gate/decision@1';
  readonly tag: string;
  /** Sortable and unique per drop: names the quarantine folder and appears in `_SUCCESS`. */
  readonly attempt: string;
  /**
   * publish or quarantine: the verdict on the files as listed. superseded: a staged file changed
   * after the listing, so the judged bytes are gone and nothing moves. duplicate: the marker was
   * put again after its drop was carried out, and there is nothing left to do.
   */
  readonly outcome: Outcome;
  readonly decided_at: string;
  readonly address: DropAddress;
  /** The contract it was judged by: `origin` says which file (registry object or bundled path) and its SHA-256. */
  readonly contract: { readonly name: string; readonly version: string; readonly owner: string; readonly origin?: ContractOrigin } | null;
  readonly files: readonly StagedFile[];
  readonly report: GateReport;
  /** The freshness column's newest value when the contract names one (ISO-8601). */
  readonly newest?: { readonly column: string; readonly value: string };
  /** The producer's `_READY` manifest, kept with the publish so its bytes are not lost. */
  readonly producer_manifest?: unknown;
  /** The marker's bytes as text, when it was read (markers up to MAX_MARKER_BYTES). */
  readonly marker_text?: string;
  /** For a superseded drop: what it was going to be, and the files that changed under it. */
  readonly superseded?: { readonly was: Outcome | null; readonly changed: readonly ChangedFile[] };
  /** When the carry-out finished (files moved, owner told): a later delivery only removes the marker. */
  readonly completed_at?: string;
  /** For a duplicate: the attempt that carried out the drop this marker repeats. */
  readonly repeats?: string;
  /**
   * A quarantined attempt published as it is, by its owner's decision (`contract-gate release`):
   * `files` are the quarantine copies and `report` the attempt's own, failed checks and all.
   */
  readonly release?: Release;
  /**
   * A publish under the contract's row tolerance: these rows are left out of the published files
   * and kept, with the original files, in the attempt's quarantine folder.
   */
  readonly withheld?: Withheld;
  /**
   * One side of a linked (dual-write) drop, decided with its sibling by one pair record
   * (linked-pair.ts): published only if both passed, quarantined with it otherwise.
   */
  readonly linked?: LinkedSibling;
}

/** The other side of a linked drop, as the pair record decided it. */
export interface LinkedSibling {
  readonly address: DropAddress;
  readonly tag: string;
  readonly attempt: string;
  readonly outcome: Outcome;
  readonly summary: string;
  /** The key of the pair record both sides' decisions were made from. */
  readonly pair: string;
}

export interface Withheld {
  readonly rows: number;
  /** The contract's format: how the files are rewritten and the rejected rows written. */
  readonly format: DataFormat;
  readonly files: readonly WithheldFileRecord[];
}

/** One staged file's withheld rows (as the checker numbers them) and why each was withheld. */
export interface WithheldFileRecord {
  readonly relative: string;
  readonly rows: readonly number[];
  readonly reasons: readonly (readonly RowReason[])[];
}

export interface Release {
  readonly by: string;
  /** The releasing caller's STS identity, beside `by`; absent where there is no STS. */
  readonly caller?: string;
  readonly reason: string;
  readonly at: string;
  readonly from_attempt: string;
}

export type Outcome = 'publish' | 'quarantine' | 'superseded' | 'duplicate';

/** A staged file that is no longer the version the gate listed: replaced (its ETag now) or deleted (null). */
export interface ChangedFile {
  readonly key: string;
  readonly listed: string;
  readonly now: string | null;
}

export function attemptId(decidedAt: number, tag: string): string {
  const stamp = new Date(decidedAt).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `${stamp}-${tag.slice(0, 8)}`;
}

export function parseDecision(text: string): Decision | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<Decision>;
    return parsed.format === 'contract-gate/decision@1' ? (parsed as Decision) : undefined;
  } catch {
    return undefined;
  }
}
