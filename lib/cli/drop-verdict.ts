import type { AwaitedOutcome } from '../gate/await-outcome.js';
import type { Decision } from '../gate/decision.js';
import { publishedPrefix, quarantinePrefix, type GateLayout } from '../gate/gate-layout.js';
import { isRefused } from '../gate/outcome-metrics.js';
import { quarantinedReport } from '../gate/quarantined-report.js';
import type { Violation } from '../report/report.js';
import { describeViolation } from '../report/text-report.js';
import { formatDuration } from './parse-duration.js';

/** `drop`'s exit codes: a producer job fails its task on anything but 0. */
export const DROP_EXIT = { published: 0, rejected: 1, cannotProceed: 2, noDecision: 3 } as const;

/** Rules that refuse a drop before its data is read: no contract, retired, a bad path or manifest. */
const VIOLATIONS_SHOWN = 5;

/** What `drop --wait` reports, in either format: one object, also the `--format json` output. */
export interface DropVerdict {
  readonly verdict: 'published' | 'quarantined' | 'refused' | 'superseded' | 'duplicate' | 'no_decision';
  readonly outcome: Decision['outcome'] | null;
  readonly exit_code: number;
  readonly marker: string;
  readonly contract: Decision['contract'];
  /** `<name> v<major>`, also for a drop no contract covers. */
  readonly dataset: string;
  readonly partition: string;
  readonly attempt: string | null;
  readonly summary: string;
  readonly violations: readonly Violation[];
  readonly warnings: readonly string[];
  /** `_REPORT.json` of a quarantine (for a duplicate: of the drop it repeats). */
  readonly report: string | null;
  /** `_SUCCESS` of a publish (for a duplicate: of the drop it repeats). */
  readonly manifest: string | null;
  /** The gate's decision record; for a superseded drop the only record of what happened. */
  readonly decision: string | null;
  /** For a duplicate: the attempt it repeats and what that drop became. */
  readonly repeats?: { readonly attempt: string; readonly outcome: Decision['outcome'] | null };
}

export interface VerdictContext {
  readonly location: string;
  readonly layout: GateLayout;
  readonly marker: string;
  readonly dataset: string;
  readonly partition: string;
  readonly timeoutMs: number;
}

export function dropVerdict(awaited: AwaitedOutcome, context: VerdictContext): DropVerdict {
  const decisionUrl = awaited.key === undefined ? null : `${context.location}/${awaited.key}`;
  if (awaited.status === 'timeout') return noDecision(awaited, context, decisionUrl);
  const { decision, original } = awaited;
  // A duplicate moved nothing: what the producer's data got is what the drop it repeats got.
  const effective = decision.outcome === 'duplicate' ? original : decision;
  const places = effective ? whereItIs(effective, context) : { report: null, manifest: null };
  return {
    verdict: verdictOf(decision),
    outcome: decision.outcome,
    exit_code: effective?.outcome === 'publish' ? DROP_EXIT.published : DROP_EXIT.rejected,
    marker: context.marker,
    contract: decision.contract,
    dataset: context.dataset,
    partition: decision.address.partition,
    attempt: decision.attempt,
    summary: decision.report.summary,
    violations: violationsOf(effective ?? decision, context.layout),
    warnings: decision.report.warnings,
    ...places,
    decision: decisionUrl,
    ...(decision.repeats === undefined ? {} : { repeats: { attempt: decision.repeats, outcome: original?.outcome ?? null } }),
  };
}

function noDecision(awaited: Extract<AwaitedOutcome, { status: 'timeout' }>, context: VerdictContext, decisionUrl: string | null): DropVerdict {
  const summary = awaited.decided
    ? `the gate decided ${awaited.decided.outcome} but did not finish carrying it out within ${formatDuration(context.timeoutMs)}`
    : `no decision within ${formatDuration(context.timeoutMs)}: is the gate running and is the bucket's notification for ${context.marker} set up? The drop stays in staging`;
  return {
    verdict: 'no_decision', outcome: awaited.decided?.outcome ?? null, exit_code: DROP_EXIT.noDecision, marker: context.marker,
    contract: awaited.decided?.contract ?? null, dataset: context.dataset, partition: context.partition, attempt: awaited.decided?.attempt ?? null,
    summary, violations: [], warnings: [], report: null, manifest: null, decision: decisionUrl,
  };
}

/** As `_REPORT.json` shows them: a quarantined drop's samples name its quarantine keys, where the files now are. */
function violationsOf(decision: Decision, layout: GateLayout): readonly Violation[] {
  return decision.outcome === 'quarantine' ? quarantinedReport(decision, layout).violations : decision.report.violations;
}

function verdictOf(decision: Decision): DropVerdict['verdict'] {
  if (decision.outcome === 'publish') return 'published';
  if (decision.outcome === 'quarantine') return isRefused(decision) ? 'refused' : 'quarantined';
  return decision.outcome;
}

function whereItIs(decision: Decision, context: VerdictContext): Pick<DropVerdict, 'report' | 'manifest'> {
  const { location, layout } = context;
  if (decision.outcome === 'publish') return { report: null, manifest: `${location}/${publishedPrefix(layout, decision.address)}${layout.success}` };
  if (decision.outcome === 'quarantine') return { report: `${location}/${quarantinePrefix(layout, decision.address, decision.attempt)}${layout.report}`, manifest: null };
  return { report: null, manifest: null };
}

/** The verdict as a CI log shows it: a headline, the top violations, then where to look. */
export function formatDropVerdict(verdict: DropVerdict): string {
  const name = verdict.contract ? `${verdict.contract.name} ${verdict.contract.version}` : verdict.dataset;
  const attempt = verdict.attempt ? `, attempt ${verdict.attempt}` : '';
  const lines = [`${verdict.verdict.toUpperCase().replace('_', ' ')} ${name} ${verdict.partition}${attempt}: ${verdict.summary}`];
  if (verdict.verdict === 'duplicate') lines.push(`  a repeat of attempt ${verdict.repeats?.attempt ?? 'unknown'}, whose drop was ${verdict.repeats?.outcome ?? 'not found'}: nothing moved`);
  for (const violation of verdict.violations.slice(0, VIOLATIONS_SHOWN)) lines.push(...describeViolation(violation));
  const more = verdict.violations.length - VIOLATIONS_SHOWN;
  if (more > 0) lines.push(`  … and ${more} more ${more === 1 ? 'violation' : 'violations'} in the report`);
  for (const warning of verdict.warnings) lines.push(`  ! ${warning}`);
  if (verdict.manifest) lines.push(`  published: ${verdict.manifest}`);
  if (verdict.report) lines.push(`  report: ${verdict.report}`);
  if (verdict.verdict === 'superseded' && verdict.decision) lines.push(`  decision: ${verdict.decision}`);
  if (verdict.verdict === 'no_decision') lines.push(`  marker: ${verdict.marker}${verdict.decision ? `, decision (when there is one): ${verdict.decision}` : ''}`);
  return `${lines.join('\n')}\n`;
}
