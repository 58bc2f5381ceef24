import { readWhole, type ObjectStore } from '../storage/object-store.js';
import { appendAudit, readLatest } from './audit-chain.js';
import type { AuditEntry, StoredAudit } from './audit-record.js';
import type { Decision, Release } from './decision.js';
import { publishedPrefix, quarantinePrefix, type GateLayout } from './gate-layout.js';
import type { AttemptRef } from './quarantine-attempt.js';
import type { RecordedDecision } from './recorded-decision.js';

/**
 * The audit record of a release is a step of carrying its decision out (after the notice, before
 * the decision is marked complete), not of the command: a release killed after `_SUCCESS` is
 * finished, record and all, by whoever carries the decision out next (the next `release` run, or
 * the gate's next drop of the partition).
 */
export async function auditRelease(deps: { store: ObjectStore; layout: GateLayout }, recorded: Pick<RecordedDecision, 'key'> & { decision: Released }, completedAt: string): Promise<StoredAudit> {
  const ref = releasedRef(deps.layout, recorded.decision);
  const existing = await readLatest(deps.store, deps.layout, ref, 'release');
  if (existing) return existing;
  // A race lost to another run carrying this release out hands back that run's record.
  return appendAudit(deps.store, deps.layout, ref.address, await releaseEntry(deps, recorded, completedAt), undefined);
}

export type Released = Decision & { readonly release: Release };

function releasedRef(layout: GateLayout, decision: Released): AttemptRef {
  const attempt = decision.release.from_attempt;
  return { address: decision.address, attempt, prefix: quarantinePrefix(layout, decision.address, attempt) };
}

/** The record of a carried-out release, from its decision (a resumed run records the first run's who and why). */
async function releaseEntry(deps: { store: ObjectStore; layout: GateLayout }, recorded: Pick<RecordedDecision, 'key'> & { decision: Released }, completedAt: string): Promise<AuditEntry> {
  const { store, layout } = deps;
  const { decision } = recorded;
  const prefix = publishedPrefix(layout, decision.address);
  const successKey = `${prefix}${layout.success}`;
  const etags = await publishedEtags(store, successKey, decision.attempt);
  const { release, report } = decision;
  return {
    action: 'release',
    state: 'done',
    by: release.by,
    caller: release.caller ?? null,
    reason: release.reason,
    at: release.at,
    completed_at: completedAt,
    from: { attempt: release.from_attempt, folder: `${store.location}/${quarantinePrefix(layout, decision.address, release.from_attempt)}`, status: report.status, summary: report.summary },
    copies: decision.files.map((file) => {
      const to = `${prefix}${file.relative}`;
      const etag = etags.get(to);
      return { from: file.key, to, size: file.size, ...(etag === undefined ? {} : { etag }) };
    }),
    decision: recorded.key,
    attempt: decision.attempt,
    success: successKey,
  };
}

/** The ETags `_SUCCESS` lists, when it is still this release's. */
async function publishedEtags(store: ObjectStore, successKey: string, attempt: string): Promise<Map<string, string>> {
  const bytes = await readWhole(store, successKey);
  try {
    const manifest = JSON.parse(new TextDecoder().decode(bytes ?? new Uint8Array())) as { attempt?: string; files?: { key: string; etag: string }[] };
    if (manifest.attempt === attempt) return new Map((manifest.files ?? []).map((f) => [f.key, f.etag]));
  } catch {
    // a newer publish's, or unreadable: the record goes without ETags
  }
  return new Map();
}
