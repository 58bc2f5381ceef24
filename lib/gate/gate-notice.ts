import type { Notice } from '../notify/notifier.js';
import { describeViolation } from '../report/text-report.js';
import type { Decision } from './decision.js';
import { publishedPrefix, quarantinePrefix, stagingPrefix, type GateLayout } from './gate-layout.js';
import type { GateReport } from './gate-report.js';
import { quarantinedReport } from './quarantined-report.js';

const TOP_VIOLATIONS = 5;

/** The page an owner reads: dataset, partition, verdict, the top violations, and where things are. */
export function gateNotice(decision: Decision, layout: GateLayout, location: string): Notice {
  const { address, report } = decision;
  const published = decision.outcome === 'publish';
  const dataset = `${address.dataset} v${address.major}`;
  const verdict = published ? 'published' : 'QUARANTINED';
  const count = report.violations.length;
  const headline = published ? `${report.rows.toLocaleString('en-US')} rows` : `${count} ${count === 1 ? 'violation' : 'violations'}`;
  const where = published ? publishedPrefix(layout, address) : quarantinePrefix(layout, address, decision.attempt);
  const lines = [
    `Dataset:   ${dataset}${decision.contract ? ` (contract ${decision.contract.version}, owner ${decision.contract.owner})` : ' (no contract)'}`,
    `Partition: ${address.partition}`,
    `Verdict:   ${verdict}: ${report.summary}`,
    `Attempt:   ${decision.attempt}`,
    ...report.warnings.map((w) => `Warning:   ${w}`),
    '',
    ...(published ? [] : topViolations(quarantinedReport(decision, layout))),
    `Data:      ${location}/${where}`,
    published ? `Manifest:  ${location}/${where}${layout.success}` : `Report:    ${location}/${where}${layout.report}`,
    ...(published ? [] : ['', `Fix the data and drop it again into ${location}/${stagingPrefix(layout, address)} (data files first, ${layout.marker} last).`]),
  ];
  return {
    subject: `[contract-gate] ${dataset} ${address.partition} ${verdict}: ${headline}`,
    body: `${lines.join('\n')}\n`,
    attributes: {
      contract: address.dataset,
      version: `v${address.major}`,
      owner: decision.contract?.owner ?? 'unknown',
      outcome: published ? 'published' : 'quarantined',
      severity: published ? (report.warnings.length > 0 ? 'warning' : 'info') : 'critical',
      partition: address.partition,
    },
  };
}

/** From the quarantined report, so the samples name the keys the files now have. */
function topViolations(report: GateReport): string[] {
  // One line each, as in the text report; a message's own line breaks make lines of their own.
  const text = report.violations.slice(0, TOP_VIOLATIONS).flatMap(describeViolation).join('\n').split('\n').filter(Boolean);
  const more = report.violations.length > TOP_VIOLATIONS ? [`  … and ${report.violations.length - TOP_VIOLATIONS} more in the report`] : [];
  return ['Top violations:', ...text, ...more, ''];
}
