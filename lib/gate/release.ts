import type { Notifier } from '../notify/notifier.js';
import { readWhole } from '../storage/object-store.js';
import { appendAudit, readLatest } from './audit-chain.js';
import type { AuditEntry, AuditRecord } from './audit-record.js';
import type { Decision } from './decision.js';
import { publishedPrefix } from './gate-layout.js';
import { decisionKeyOf, settleDrop } from './process-marker.js';
import { publishedSince } from './published-since.js';
import { readQuarantinedAttempt, type AttemptRef, type QuarantinedAttempt } from './quarantine-attempt.js';
import { readRecorded } from './recorded-decision.js';
import { ownerLease, type Actor, type OwnerActionDeps } from './redrive.js';
import { quarantineDecision, releaseDecision, releaseTag } from './release-decision.js';

export interface ReleaseDeps extends OwnerActionDeps {
  readonly notifier: Notifier;
}

export type ReleaseResult =
  | { readonly status: 'released' | 'already_released'; readonly audit: AuditRecord; readonly auditKey: string; readonly resumed: boolean }
  | { readonly status: 'refused'; readonly reason: string };

/**
 * Publishes a quarantined attempt as it is, by its owner's decision. It is one more decision of
 * the partition, carried out as the gate carries out its own (settleDrop: under the partition's
 * lease, a conditional create, resumed by whoever comes next, one notice), so a run killed at
 * any point is finished by the next run, or by the gate's next drop of the partition.
 */
export async function releaseAttempt(deps: ReleaseDeps, ref: AttemptRef, actor: Actor & { reason: string }): Promise<ReleaseResult> {
  const { store, layout } = deps;
  const attempt = await readQuarantinedAttempt(store, layout, ref);
  const audited = await readLatest(store, layout, ref, 'release');
  if (audited) return { status: 'already_released', audit: audited.record, auditKey: audited.key, resumed: false };
  const tag = releaseTag(ref.attempt);
  const resumed = (await readRecorded(store, decisionKeyOf(layout, ref.address, tag))) !== undefined;
  let refusal: string | undefined;
  const settle = { ...deps, lease: deps.lease ?? ownerLease('release') };
  const decision = await settleDrop(settle, ref.address, tag, async () => {
    // Under the lease, so no drop of the partition is published between this look and the decision.
    refusal = await publishedSince(store, layout, attempt);
    return refusal ? undefined : releaseDecision(deps.clock(), attempt, await quarantineDecision(store, layout, attempt), actor);
  });
  if (!decision) return { status: 'refused', reason: refusal ?? 'the release was not decided' };
  if (decision.outcome !== 'publish') {
    const changed = (decision.superseded?.changed ?? []).map((c) => c.key).join(', ');
    return { status: 'refused', reason: `a quarantined file changed after the release listed it (${changed}): nothing was released` };
  }
  const record = await releaseRecord(deps, attempt, decision, decisionKeyOf(layout, ref.address, tag), actor);
  // A race lost to another run of this release hands back that run's record.
  const written = await appendAudit(store, layout, ref.address, record, undefined);
  return { status: 'released', audit: written.record, auditKey: written.key, resumed };
}

/** The audit record of a carried-out release, from its decision (a resumed run records the first run's who and why). */
async function releaseRecord(deps: ReleaseDeps, attempt: QuarantinedAttempt, decision: Decision, decisionKey: string, actor: Actor): Promise<AuditEntry> {
  const prefix = publishedPrefix(deps.layout, attempt.address);
  const successKey = `${prefix}${deps.layout.success}`;
  const etags = await publishedEtags(deps, successKey, decision.attempt);
  const release = decision.release!;
  return {
    action: 'release',
    state: 'done',
    by: release.by,
    // A resumed run records the first run's who; its caller too, unless that run had none.
    caller: release.caller ?? actor.caller ?? null,
    reason: release.reason,
    at: release.at,
    completed_at: decision.completed_at ?? new Date(deps.clock()).toISOString(),
    from: { attempt: attempt.attempt, folder: `${deps.store.location}/${attempt.prefix}`, status: attempt.report.status, summary: attempt.report.summary },
    copies: decision.files.map((file) => {
      const to = `${prefix}${file.relative}`;
      const etag = etags.get(to);
      return { from: file.key, to, size: file.size, ...(etag === undefined ? {} : { etag }) };
    }),
    decision: decisionKey,
    attempt: decision.attempt,
    success: successKey,
  };
}

/** The ETags `_SUCCESS` lists, when it is still this release's. */
async function publishedEtags(deps: ReleaseDeps, successKey: string, attempt: string): Promise<Map<string, string>> {
  const bytes = await readWhole(deps.store, successKey);
  try {
    const manifest = JSON.parse(new TextDecoder().decode(bytes ?? new Uint8Array())) as { attempt?: string; files?: { key: string; etag: string }[] };
    if (manifest.attempt === attempt) return new Map((manifest.files ?? []).map((f) => [f.key, f.etag]));
  } catch {
    // a newer publish's, or unreadable: the record goes without ETags
  }
  return new Map();
}
