import type { Notice, Outcome, Severity } from '../notify/notifier.js';
import { describeViolation } from '../report/text-report.js';
import type { Decision } from './decision.js';
import { publishedPrefix, quarantinePrefix, stagingPrefix, type GateLayout } from './gate-layout.js';
import type { GateReport } from './gate-report.js';
import { quarantinedReport } from './quarantined-report.js';

const TOP_VIOLATIONS = 5;

/**
 * The page an owner reads: dataset, partition, verdict, the top violations, and where things
 * are. A duplicate marker gets none: the drop it repeats had its own.
 */
export function gateNotice(decision: Decision, layout: GateLayout, location: string): Notice | undefined {
  if (decision.outcome === 'duplicate') return undefined;
  const { address, report } = decision;
  const dataset = `${address.dataset} v${address.major}`;
  const lines = [
    `Dataset:   ${dataset}${decision.contract ? ` (contract ${decision.contract.version}, owner ${decision.contract.owner})` : ' (no contract)'}`,
    `Partition: ${address.partition}`,
    `Verdict:   ${VERDICT[decision.outcome]}: ${report.summary}`,
    `Attempt:   ${decision.attempt}`,
    ...report.warnings.map((w) => `Warning:   ${w}`),
    '',
    ...whereThingsAre(decision, layout, location),
  ];
  return {
    subject: `[contract-gate] ${dataset} ${address.partition} ${VERDICT[decision.outcome]}: ${headline(decision)}`,
    body: `${lines.join('\n')}\n`,
    attributes: {
      contract: address.dataset,
      version: `v${address.major}`,
      owner: decision.contract?.owner ?? 'unknown',
      outcome: OUTCOME[decision.outcome],
      severity: severity(decision),
      partition: address.partition,
      drop: decision.tag,
      attempt: decision.attempt,
    },
  };
}

type Told = Exclude<Decision['outcome'], 'duplicate'>;
const VERDICT: Record<Told, string> = { publish: 'published', quarantine: 'QUARANTINED', superseded: 'superseded' };
const OUTCOME: Record<Told, Outcome> = { publish: 'published', quarantine: 'quarantined', superseded: 'superseded' };

function headline(decision: Decision): string {
  const { report } = decision;
  if (decision.outcome === 'publish') return `${report.rows.toLocaleString('en-US')} rows`;
  if (decision.outcome === 'superseded') return 'files changed after the marker; nothing moved';
  return `${report.violations.length} ${report.violations.length === 1 ? 'violation' : 'violations'}`;
}

/** Critical only when data was refused; a superseded drop is the producer's to re-mark, a warning. */
function severity(decision: Decision): Severity {
  if (decision.outcome === 'quarantine') return 'critical';
  if (decision.outcome === 'superseded') return 'warning';
  return decision.report.warnings.length > 0 ? 'warning' : 'info';
}

function whereThingsAre(decision: Decision, layout: GateLayout, location: string): string[] {
  const { address } = decision;
  const staging = `${location}/${stagingPrefix(layout, address)}`;
  if (decision.outcome === 'publish') {
    const where = `${location}/${publishedPrefix(layout, address)}`;
    return [`Data:      ${where}`, `Manifest:  ${where}${layout.success}`];
  }
  if (decision.outcome === 'superseded') {
    const changed = (decision.superseded?.changed ?? []).map((c) => `  ${c.key}: ${c.now === null ? 'deleted' : 'replaced'}`);
    return ['Changed after the gate listed the drop:', ...changed, '', `Data:      still in ${staging}, not validated`, '', `To have it validated, put ${layout.marker} again once every file is written.`];
  }
  const where = `${location}/${quarantinePrefix(layout, address, decision.attempt)}`;
  return [
    ...topViolations(quarantinedReport(decision, layout)),
    `Data:      ${where}`,
    `Report:    ${where}${layout.report}`,
    '',
    `Fix the data and drop it again into ${staging} (data files first, ${layout.marker} last).`,
  ];
}

/** From the quarantined report, so the samples name the keys the files now have. */
function topViolations(report: GateReport): string[] {
  // One line each, as in the text report; a message's own line breaks make lines of their own.
  const text = report.violations.slice(0, TOP_VIOLATIONS).flatMap(describeViolation).join('\n').split('\n').filter(Boolean);
  const more = report.violations.length > TOP_VIOLATIONS ? [`  … and ${report.violations.length - TOP_VIOLATIONS} more in the report`] : [];
  return ['Top violations:', ...text, ...more, ''];
}
