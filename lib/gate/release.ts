import type { Notifier } from '../notify/notifier.js';
import { readLatest } from './audit-chain.js';
import type { AuditRecord } from './audit-record.js';
import type { Decision } from './decision.js';
import { clearDeadLease, leaseKey } from './partition-lease.js';
import { decisionKeyOf, settleDrop } from './process-marker.js';
import { publishedSince } from './published-since.js';
import { readQuarantinedAttempt, unjudgedFiles, type AttemptRef } from './quarantine-attempt.js';
import { readRecorded } from './recorded-decision.js';
import { auditRelease } from './release-audit.js';
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
 * lease, a conditional create, resumed by whoever comes next, one notice, then the audit record),
 * so a run killed at any point is finished by the next run, or by the gate's next drop of the
 * partition. Only the versions the gate quarantined are published: each copy is pinned to the
 * ETag the report recorded.
 */
export async function releaseAttempt(deps: ReleaseDeps, ref: AttemptRef, actor: Actor & { reason: string }): Promise<ReleaseResult> {
  const { store, layout } = deps;
  const attempt = await readQuarantinedAttempt(store, layout, ref);
  const tag = releaseTag(ref.attempt);
  const decisionKey = decisionKeyOf(layout, ref.address, tag);
  const earlier = await readRecorded(store, decisionKey);
  const audited = await readLatest(store, layout, ref, 'release');
  // The audit record is written before the decision completes; a decision gone (its _gate/ records expire) with the record kept was completed.
  if (audited && (earlier === undefined || earlier.decision.completed_at !== undefined)) {
    await clearDeadLease(store, leaseKey(layout, ref.address), deps.clock()); // a run killed just after finishing left it
    return { status: 'already_released', audit: audited.record, auditKey: audited.key, resumed: false };
  }
  let refusal: string | undefined;
  const settle = { ...deps, lease: deps.lease ?? ownerLease('release') };
  const decision = await settleDrop(settle, ref.address, tag, async () => {
    // Under the lease, so no drop of the partition is published between this look and the decision.
    refusal = (await publishedSince(store, layout, attempt)) ?? unjudgedFiles(store.location, attempt, 'staged');
    return refusal ? undefined : releaseDecision(deps.clock(), attempt, await quarantineDecision(store, layout, attempt), actor);
  });
  if (!decision) return { status: 'refused', reason: `${refusal ?? 'the release was not decided'}; nothing was released` };
  if (decision.outcome !== 'publish' || !decision.release) return { status: 'refused', reason: changedReason(store.location, decision) };
  // A release carried out before its audit record was a step of it (an older version) gets it now.
  const released = { key: decisionKey, decision: { ...decision, release: decision.release } };
  const written = await auditRelease(deps, released, decision.completed_at ?? new Date(deps.clock()).toISOString());
  return { status: 'released', audit: written.record, auditKey: written.key, resumed: earlier !== undefined };
}

function changedReason(location: string, decision: Decision): string {
  const changed = (decision.superseded?.changed ?? []).map((c) => `${location}/${c.key} (ETag ${c.listed} when listed, ${c.now === null ? 'deleted' : `now ${c.now}`})`);
  return `a quarantined file changed after the release listed it: ${changed.join(', ')}; nothing was released`;
}
