import { isoSeconds } from '../contract/temporal.js';
import type { Violation } from '../report/report.js';
import type { ContractRegistry } from './contract-registry.js';
import { decisionRecord } from './decide.js';
import { attemptId, type ChangedFile, type Decision } from './decision.js';
import { gateReport, refusal } from './gate-report.js';
import type { Drop } from './read-drop.js';

/**
 * A drop whose files changed while the gate read them. The bytes it judged are gone, so it is
 * neither published nor quarantined: its files stay in staging, unvalidated, for the next marker.
 */
export function supersededDrop(context: { location: string; contracts: ContractRegistry; now: number }, drop: Drop, changed: readonly ChangedFile[]): Decision {
  const contract = context.contracts.find(drop.address.dataset, drop.address.major);
  const attempt = attemptId(context.now, drop.tag);
  const named = { name: drop.address.dataset, version: contract?.version.text ?? null };
  const report = gateReport(refusal(named, drop, changedViolation(changed), isoSeconds(context.now)), drop, { location: context.location, attempt, warnings: [] });
  return { ...decisionRecord(context.now, attempt, drop, contract, report), outcome: 'superseded', superseded: { was: null, changed } };
}

/** A decision that could not be carried out because a file changed after it was made. */
export function supersededDecision(decision: Decision, changed: readonly ChangedFile[]): Decision {
  const violation = changedViolation(changed);
  const report = { ...decision.report, status: 'fail' as const, violations: [violation], summary: `superseded: ${violation.message}` };
  return { ...decision, outcome: 'superseded', report, superseded: { was: decision.outcome, changed } };
}

function changedViolation(changed: readonly ChangedFile[]): Violation {
  const names = changed.map((c) => c.key.split('/').at(-1)).join(', ');
  return {
    rule: 'changed_during_validation',
    severity: 'error',
    count: changed.length,
    message:
      `${changed.length} staged ${changed.length === 1 ? 'file' : 'files'} changed after the gate listed the drop (${names}). ` +
      'The gate publishes only the bytes it validated, so nothing was moved: the new bytes are still in staging, unvalidated. ' +
      'Write every file first and the marker last; to have the files as they are now validated, put the marker again.',
    samples: changed.slice(0, 5).map((c) => ({ file: c.key, row: null, value: c.now === null ? 'deleted' : `replaced: ETag ${c.listed} when listed, ${c.now} now` })),
  };
}
