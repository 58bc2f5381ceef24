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
    `Verdict:   ${verdictOf(decision)}: ${report.summary}`,
    `Attempt:   ${decision.attempt}`,
    ...releaseLines(decision, layout, location),
    ...report.warnings.map((w) => `Warning:   ${w}`),
    '',
    ...whereThingsAre(decision, layout, location),
  ];
  return {
    subject: `[contract-gate] ${dataset} ${address.partition} ${verdictOf(decision)}: ${headline(decision)}`,
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

/** A release is published data whose checks failed: it says so wherever the verdict is shown. */
export function verdictOf(decision: Decision): string {
  if (decision.release && decision.outcome === 'publish') return 'RELEASED by override';
  if (decision.outcome === 'publish' && decision.report.status === 'warn') return 'PUBLISHED with warnings';
  return VERDICT[decision.outcome as Told];
}

/** Who released it, why, and from which quarantine attempt. */
function releaseLines(decision: Decision, layout: GateLayout, location: string): string[] {
  const { release } = decision;
  if (!release) return [];
  const from = `${location}/${quarantinePrefix(layout, decision.address, release.from_attempt)}`;
  return [`Released:  by ${release.by} at ${release.at}, because: ${release.reason}`, `From:      quarantine attempt ${release.from_attempt} (${from}), which stays there`];
}

function headline(decision: Decision): string {
  const { report } = decision;
  if (decision.outcome === 'publish') {
    const withheld = decision.withheld?.rows ?? 0;
    return `${(report.rows - withheld).toLocaleString('en-US')} rows${withheld > 0 ? `, ${withheld.toLocaleString('en-US')} withheld` : ''}`;
  }
  if (decision.outcome === 'superseded') return 'files changed after the marker; nothing moved';
  // As the summary counts them: warnings travel along but blocked nothing.
  const errors = report.violations.filter((v) => v.severity === 'error').length;
  const warnings = report.violations.length - errors;
  return `${errors} ${errors === 1 ? 'violation' : 'violations'}${warnings > 0 ? `, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}` : ''}`;
}

/** Critical only when data was refused; a superseded drop is the producer's to re-mark, a warning. */
function severity(decision: Decision): Severity {
  if (decision.outcome === 'quarantine') return 'critical';
  if (decision.release) return 'warning';
  if (decision.outcome === 'superseded') return 'warning';
  return decision.report.warnings.length > 0 || decision.report.status === 'warn' ? 'warning' : 'info';
}

function whereThingsAre(decision: Decision, layout: GateLayout, location: string): string[] {
  const { address } = decision;
  const staging = `${location}/${stagingPrefix(layout, address)}`;
  if (decision.outcome === 'publish') {
    const where = `${location}/${publishedPrefix(layout, address)}`;
    // A release's report is the attempt's _REPORT.json, whose samples already name the quarantine keys.
    const shown = decision.release ? topViolations(decision.report) : decision.report.status === 'warn' ? topViolations(decision.report, 'Warnings and withheld rows:') : [];
    return [...shown, `Data:      ${where}`, `Manifest:  ${where}${layout.success}`, ...withheldLines(decision, layout, location)];
  }
  if (decision.outcome === 'superseded' && decision.release) {
    const from = `${location}/${quarantinePrefix(layout, address, decision.release.from_attempt)}`;
    return ['A quarantined file changed after the release listed it, so nothing was released:', ...changedLines(decision), '', `Data:      still in ${from}`];
  }
  if (decision.outcome === 'superseded') {
    return ['Changed after the gate listed the drop:', ...changedLines(decision), '', `Data:      still in ${staging}, not validated`, '', `To have it validated, put ${layout.marker} again once every file is written.`];
  }
  const where = `${location}/${quarantinePrefix(layout, address, decision.attempt)}`;
  return [
    ...topViolations(quarantinedReport(decision, layout)),
    `Data:      ${where}`,
    `Report:    ${where}${layout.report}`,
    `Page:      ${where}${layout.reportPage} (open it with a presigned URL or the S3 console)`,
    '',
    `Fix the data and drop it again into ${staging} (data files first, ${layout.marker} last).`,
  ];
}

function changedLines(decision: Decision): string[] {
  return (decision.superseded?.changed ?? []).map((c) => `  ${c.key}: ${c.now === null ? 'deleted' : 'replaced'}`);
}

/** From the quarantined report, so the samples name the keys the files now have. */
function topViolations(report: GateReport, title = 'Top violations:'): string[] {
  // One line each, as in the text report; a message's own line breaks make lines of their own.
  const text = report.violations.slice(0, TOP_VIOLATIONS).flatMap(describeViolation).join('\n').split('\n').filter(Boolean);
  const more = report.violations.length > TOP_VIOLATIONS ? [`  … and ${report.violations.length - TOP_VIOLATIONS} more in the report`] : [];
  return [title, ...text, ...more, ''];
}

/** Where the rows a publish left out are: the rejected rows and the original files. */
function withheldLines(decision: Decision, layout: GateLayout, location: string): string[] {
  const { withheld } = decision;
  if (!withheld || withheld.rows === 0) return [];
  const folder = `${location}/${quarantinePrefix(layout, decision.address, decision.attempt)}`;
  const tolerance = decision.report.tolerance?.tolerance;
  return [
    `Withheld:  ${withheld.rows.toLocaleString('en-US')} invalid ${withheld.rows === 1 ? 'row' : 'rows'}${tolerance ? ` (within the tolerance ${tolerance})` : ''}: ${folder}rejected-rows.${withheld.format}`,
    `Originals: ${folder} (the files as dropped, ${layout.report} and its page ${layout.reportPage})`,
  ];
}
