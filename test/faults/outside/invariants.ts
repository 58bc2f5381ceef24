import type { DataPool } from './data-pool.js';
import type { PartitionState, StoredDecision } from './final-state.js';
import type { Ledger } from './producer.js';
import type { TrialPlan } from './trial-plan.js';

/** What the gate promises, one column each in the table `test:faults` prints. */
export const OUTSIDE_INVARIANTS = {
  'decision-record': 'a decision is well formed: tag = its file name, outcome publish|quarantine|superseded|duplicate, the file versions judged, a marker the producer put',
  'one-outcome': 'a drop has exactly one decision, and the last marker of the partition has one',
  'duplicate-outcome': 'a marker put again with the same bytes over file versions its drop already judged (or none left) is `duplicate`, not judged again',
  'carried-out': 'every decision is carried out: the newest publish is what published/ holds, quarantine has files + marker + _REPORT.html + _REPORT.json, judged staged versions are gone, superseded/duplicate move nothing',
  'quarantine-marker': 'a quarantine attempt keeps a byte copy of the marker that completed its drop (stricter reading: also when a newer marker replaced it; the gate read its bytes)',
  'success-exact': '_SUCCESS lists exactly the published objects, each with its real size and ETag (MD5 of its bytes)',
  'published-judged': 'every published file is byte for byte the version its publish decision judged, and no other file is published',
  'published-written': 'every published file is byte for byte a version the producer wrote under that name',
  'no-bad-published': 'a file version with a planted violation is never published (nor judged good by a publish decision)',
  revalidates: '`contract-gate validate` passes on a download of the published partition',
  'no-loss': 'the last version the producer wrote of every key it did not delete is byte-identical in staging, published or a quarantine attempt',
  'notice-once': 'at most one notice per drop',
  'notice-sent': 'exactly one notice for every publish, quarantine and superseded decision (local mode)',
  'notice-outcome': 'a notice names its drop and its real outcome; none for duplicate, none without a decision, no quarantine page for a published drop',
  'no-orphan-quarantine': 'every quarantine/<attempt>/ folder has _REPORT.json and a quarantine decision of that attempt',
  'no-stuck': 'after the producer stops (and no crash), the gate settles: no _READY left',
  recovery: 'after a SIGKILL and restart, every interrupted drop is finished without a new _READY',
} as const;

export type OutsideInvariant = keyof typeof OUTSIDE_INVARIANTS;

export interface OutsideViolation {
  readonly invariant: OutsideInvariant;
  readonly seed: number;
  readonly partition: string;
  readonly expected: string;
  readonly found: string;
}

/** Everything the checker knows of one trial once the gate settled. */
export interface TrialView {
  readonly plan: TrialPlan;
  readonly ledger: Ledger;
  readonly state: PartitionState;
  readonly pool: DataPool;
  /** The trial lived through at least one SIGKILL of serve. */
  readonly killed: boolean;
  /** No `_READY` was left under the partition when the settle bound ran out. */
  readonly settled: boolean;
}

export type Report = (invariant: OutsideInvariant, expected: string, found: string) => void;

export function reporter(view: Pick<TrialView, 'plan'>, into: OutsideViolation[]): Report {
  return (invariant, expected, found) => into.push({ invariant, seed: view.plan.seed, partition: view.plan.partition, expected, found });
}

export const OUTCOMES = ['publish', 'quarantine', 'superseded', 'duplicate'] as const;

/** Decisions that parsed and name an outcome the promise knows. */
export function validDecisions(state: PartitionState): StoredDecision[] {
  return state.decisions.filter((d) => d.record && (OUTCOMES as readonly string[]).includes(d.record.outcome ?? ''));
}

/** How a drop is named in reports: its tag, outcome and marker. */
export function describeDecision(d: StoredDecision): string {
  const r = d.record;
  const marker = r?.report?.source?.marker;
  return `${d.stem} (${r?.outcome ?? '?'}, attempt ${r?.attempt ?? '?'}, marker ${marker?.etag?.slice(0, 8) ?? '?'} @ ${marker?.last_modified ?? '?'}, files ${(r?.files ?? []).map((f) => `${f.relative}:${f.etag?.slice(0, 8)}`).join(' ') || 'none'})`;
}

/** The version label of some bytes, for reports: `part-1@g2`, `part-3@bad-enum`, or `unknown bytes`. */
export function labelOf(pool: DataPool, md5: string | undefined): string {
  return (md5 && pool.byMd5.get(md5)?.label) ?? `unknown bytes ${md5?.slice(0, 8) ?? '?'}`;
}

const isJudged = (d: StoredDecision) => d.record!.outcome === 'publish' || d.record!.outcome === 'quarantine';
const fileSet = (d: StoredDecision) => new Set((d.record!.files ?? []).map((f) => `${f.relative}|${f.etag}`));

/**
 * Re-put markers judged again: a publish or quarantine decision whose marker has the same bytes
 * as an earlier judged drop's and whose files are all versions that drop already judged (none
 * left at all, or the same ones while it was being carried out). The stricter reading of
 * "duplicate": same marker bytes over the same file bytes are one drop's, judged once. A re-put
 * over files that changed (added, overwritten) is a new drop and may be judged.
 */
export function rejudged(valid: readonly StoredDecision[]): { later: StoredDecision; earlier: StoredDecision }[] {
  const markerOf = (d: StoredDecision) => d.record!.report?.source?.marker;
  const judged = valid.filter(isJudged).sort((a, b) => ((markerOf(a)?.last_modified ?? '') < (markerOf(b)?.last_modified ?? '') ? -1 : 1));
  const pairs: { later: StoredDecision; earlier: StoredDecision }[] = [];
  judged.forEach((later, i) => {
    const files = fileSet(later);
    const earlier = judged.slice(0, i).find((e) => markerOf(e)?.etag === markerOf(later)?.etag && markerOf(e)?.last_modified !== markerOf(later)?.last_modified && [...files].every((f) => fileSet(e).has(f)));
    if (earlier) pairs.push({ later, earlier });
  });
  return pairs;
}
