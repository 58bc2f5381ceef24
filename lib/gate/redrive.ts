import { GateError } from '../errors.js';
import type { ObjectStore } from '../storage/object-store.js';
import { appendAudit, readLatest } from './audit-chain.js';
import type { AuditEntry, AuditRecord, StoredAudit } from './audit-record.js';
import { markerKey, type GateLayout } from './gate-layout.js';
import { clearDeadLease, leaseKey, withPartitionLease, type LeaseSettings } from './partition-lease.js';
import { publishedSince } from './published-since.js';
import { readQuarantinedAttempt, unjudgedFiles, type AttemptRef, type QuarantinedAttempt } from './quarantine-attempt.js';
import { copiesInStaging, copyBack, plannedCopies, stagingInTheWay, takeBack, type PlannedCopy } from './redrive-copies.js';
import { redriveMarker, type RedriveMarker } from './redrive-marker.js';

export interface OwnerActionDeps {
  readonly store: ObjectStore;
  readonly layout: GateLayout;
  readonly clock: () => number;
  /** @default ownerLease() */
  readonly lease?: LeaseSettings;
}

/** Who did it and why, for the audit record (and, for a release, `_SUCCESS` and the notice). */
export interface Actor {
  /** Who the owner says did it (`--by`), else the caller. */
  readonly by: string;
  /** The caller's STS identity, recorded beside `by` and never replaced by it; null where there is no STS. @default null */
  readonly caller?: string | null;
  readonly reason: string | null;
}

export type RedriveResult =
  | { readonly status: 'redriven' | 'already_redriven'; readonly audit: AuditRecord; readonly auditKey: string; readonly resumed: boolean }
  | { readonly status: 'refused'; readonly reason: string };

interface Redrive {
  readonly deps: OwnerActionDeps;
  readonly attempt: QuarantinedAttempt;
  readonly copies: readonly PlannedCopy[];
  readonly marker: RedriveMarker;
}

/**
 * Puts a quarantined attempt's data files back into staging and then a marker, so the gate judges
 * the drop again under the contract as it is now. The attempt stays in quarantine. Holding the
 * partition's lease, as the gate does, so no handler is moving the partition's files meanwhile;
 * its progress is the audit record's state, so a run killed at any point resumes, and a run after
 * it is done changes nothing.
 */
export async function redriveAttempt(deps: OwnerActionDeps, ref: AttemptRef, actor: Actor): Promise<RedriveResult> {
  const attempt = await readQuarantinedAttempt(deps.store, deps.layout, ref);
  const already = (stored: StoredAudit | undefined): RedriveResult | undefined =>
    stored?.record.state === 'done' ? { status: 'already_redriven', audit: stored.record, auditKey: stored.key, resumed: false } : undefined;
  // A no-op needs no lease: the gate may hold it for a while, judging the redriven drop.
  const before = already(await readLatest(deps.store, deps.layout, ref, 'redrive'));
  if (before) {
    await clearDeadLease(deps.store, leaseKey(deps.layout, ref.address), deps.clock()); // a run killed just after finishing left it
    return before;
  }
  if (attempt.files.length === 0) return { status: 'refused', reason: `${deps.store.location}/${ref.prefix} holds no data files: there is nothing to judge again` };
  const marker = await redriveMarker(deps.store, attempt);
  if ('refused' in marker) return { status: 'refused', reason: marker.refused };
  const run: Redrive = { deps, attempt, copies: plannedCopies(deps.layout, attempt), marker };
  return withPartitionLease(deps.store, leaseKey(deps.layout, ref.address), deps.lease ?? ownerLease('redrive'), deps.clock, async () => {
    const stored = await readLatest(deps.store, deps.layout, ref, 'redrive');
    const done = already(stored);
    if (done) return done;
    const resumed = stored !== undefined && stored.record.state !== 'withdrawn';
    const copied = stored?.record.state === 'marking' ? stored : await startAndCopy(run, actor, stored);
    if ('reason' in copied) return { status: 'refused', reason: copied.reason };
    const finished = await markAndFinish(run, copied);
    return 'reason' in finished ? { status: 'refused', reason: finished.reason } : { status: 'redriven', audit: finished.record, auditKey: finished.key, resumed };
  });
}

/**
 * An owner's command is short, but may copy large files: its lease lasts 30 s and is renewed every
 * 10 s while it runs, so a run that was killed blocks its partition for 30 s at most, and the next
 * run (waiting up to a minute) takes it over. Nothing retries a command: "busy" says what to do.
 */
export function ownerLease(action: string, tell?: (line: string) => void): LeaseSettings {
  return {
    holder: `${action}-${Math.random().toString(36).slice(2, 10)}`,
    ttlMs: OWNER_LEASE_MS,
    renewMs: OWNER_LEASE_MS / 3,
    busyAdvice: () => `nothing was done by this ${action}: run it again once that is over (it is safe to run again)`,
    onTakeOver: (held) => tell?.(`${action}: took over ${held.key} from ${held.holder}, which stopped renewing it (it expired at ${held.expires_at}): a run that died; what it left undone is finished now`),
  };
}

export const OWNER_LEASE_MS = 30_000;

/** Checks, records the intent, copies: a refusal on a re-run takes back what the interrupted run copied. */
async function startAndCopy(run: Redrive, actor: Actor, stored: StoredAudit | undefined): Promise<StoredAudit | { reason: string }> {
  const { store, layout } = run.deps;
  const mine = stored?.record.state === 'copying' ? run.copies : [];
  const refusal = (await publishedSince(store, layout, run.attempt)) ?? unjudgedFiles(store.location, run.attempt, 'size') ?? (await stagingInTheWay(store, layout, run.attempt, mine));
  if (refusal) return withdraw(run, stored, refusal);
  const started = stored?.record.state === 'copying' ? stored : await record(run, intent(run, actor), stored);
  if (started.record.state !== 'copying') return started;
  const copied = await copyBack(store, run.copies, started.record.at);
  if ('changed' in copied) return withdraw(run, started, copied.changed);
  const copies = run.copies.map(({ file, to }, i) => ({ from: file.key, to, size: file.size, etag: copied.etags[i]! }));
  return record(run, { ...started.record, state: 'marking', copies }, started);
}

/**
 * The marker goes last. A run that died after putting it finds it still there, or the copies
 * gone because the gate has carried the drop out since: either way there is nothing left to put.
 */
async function markAndFinish(run: Redrive, stored: StoredAudit): Promise<StoredAudit | { reason: string }> {
  const { store, layout, clock } = run.deps;
  if (stored.record.state === 'done') return stored;
  const key = markerKey(layout, run.attempt.address);
  let etag = (await store.head(key))?.etag;
  if (etag === undefined) {
    const present = await copiesInStaging(store, run.copies);
    if (present > 0 && present < run.copies.length) {
      return { reason: `${present} of the ${run.copies.length} redriven files are in staging and the marker is not: something else changed staging since; nothing was marked` };
    }
    if (present === run.copies.length) etag = await putMarker(store, key, run.marker.body);
  }
  const marker = { key, bytes: run.marker.bytes, ...(etag === undefined ? {} : { etag }) };
  return record(run, { ...stored.record, state: 'done', completed_at: new Date(clock()).toISOString(), marker }, stored);
}

async function putMarker(store: ObjectStore, key: string, body: Uint8Array | string): Promise<string | undefined> {
  try {
    return (await store.put(key, body, { ifNoneMatch: '*', contentType: 'application/json' })).etag;
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    return (await store.head(key))?.etag; // landed, its answer lost; or a marker another run put
  }
}

function intent(run: Redrive, actor: Actor): AuditEntry {
  const { attempt, deps } = run;
  return {
    action: 'redrive',
    state: 'copying',
    by: actor.by,
    caller: actor.caller ?? null,
    reason: actor.reason,
    at: new Date(deps.clock()).toISOString(),
    from: { attempt: attempt.attempt, folder: `${deps.store.location}/${attempt.prefix}`, status: attempt.report.status, summary: attempt.report.summary },
    copies: run.copies.map(({ file, to }) => ({ from: file.key, to, size: file.size })),
    marker: { key: markerKey(deps.layout, attempt.address), bytes: run.marker.bytes },
  };
}

/** A refused re-run of an interrupted redrive leaves staging as it found it before that run. */
async function withdraw(run: Redrive, stored: StoredAudit | undefined, reason: string): Promise<{ reason: string }> {
  if (stored?.record.state === 'copying') {
    await takeBack(run.deps.store, run.copies);
    await record(run, { ...stored.record, state: 'withdrawn', withdrawn: reason }, stored);
  }
  return { reason };
}

/** Appends the next state; when another run moved the redrive on first, its record is the one to go on from. */
async function record(run: Redrive, next: AuditEntry | AuditRecord, over: StoredAudit | undefined): Promise<StoredAudit> {
  return appendAudit(run.deps.store, run.deps.layout, run.attempt.address, next, over);
}
