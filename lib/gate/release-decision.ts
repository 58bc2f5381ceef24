import { hashTag } from '../checks/key-hash.js';
import { isoSeconds } from '../contract/temporal.js';
import type { ObjectStore } from '../storage/object-store.js';
import { attemptId, type Decision } from './decision.js';
import { statePrefix, type GateLayout } from './gate-layout.js';
import type { QuarantinedAttempt } from './quarantine-attempt.js';
import { readRecorded } from './recorded-decision.js';

/** One release per attempt: the tag names the decision record and the notice claim, so a re-run finds both. */
export function releaseTag(fromAttempt: string): string {
  return `release-${fromAttempt}`;
}

/**
 * The decision a release is carried out through: a publish of the quarantine copies, with the
 * attempt's own report (status fail: consumers see the checks failed) and who released it and
 * why. Its attempt id is shaped as every other (`<time>-<8 hex>`, from a hash of the tag), so it
 * sorts by time against the partition's other attempts.
 */
export function releaseDecision(now: number, attempt: QuarantinedAttempt, original: Decision | undefined, actor: { by: string; caller?: string | null; reason: string }): Decision {
  const tag = releaseTag(attempt.attempt);
  const at = isoSeconds(now);
  const { report } = attempt;
  return {
    format: 'contract-gate/decision@1',
    tag,
    attempt: attemptId(now, Math.floor(hashTag(tag)).toString(16).padStart(14, '0')),
    outcome: 'publish',
    decided_at: at,
    address: attempt.address,
    contract: original?.contract ?? (report.contract.version === null ? null : { name: report.contract.name, version: report.contract.version, owner: 'unknown' }),
    files: attempt.files,
    report,
    ...(original?.newest ? { newest: original.newest } : {}),
    ...(original?.producer_manifest === undefined ? {} : { producer_manifest: original.producer_manifest }),
    release: { by: actor.by, ...(actor.caller ? { caller: actor.caller } : {}), reason: actor.reason, at, from_attempt: attempt.attempt },
  };
}

/**
 * The decision that quarantined the attempt, for what its report lacks (the owner to notify, the
 * producer's manifest). Its key starts with the tag the attempt id ends with. Undefined when the
 * state prefix no longer has it; the release then goes ahead with the report alone.
 */
export async function quarantineDecision(store: ObjectStore, layout: GateLayout, attempt: QuarantinedAttempt): Promise<Decision | undefined> {
  const prefix = `${statePrefix(layout, 'decisions', attempt.address)}${attempt.attempt.slice(attempt.attempt.indexOf('-') + 1)}`;
  for await (const object of store.list(prefix)) {
    const recorded = await readRecorded(store, object.key).catch(() => undefined);
    if (recorded?.decision.attempt === attempt.attempt && recorded.decision.outcome === 'quarantine') return recorded.decision;
  }
  return undefined;
}
