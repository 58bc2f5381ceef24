import type { Report, Sample, Violation } from './report.js';

const SAMPLES_SHOWN = 3;

/** A verdict short enough for a CI log: one headline, then one entry per violation. */
export function formatTextReport(report: Report): string {
  const lines = [headline(report)];
  for (const violation of report.violations) lines.push(...describeViolation(violation));
  return `${lines.join('\n')}\n`;
}

function headline(report: Report): string {
  const { name, version } = report.contract;
  const files = `${report.files.length} ${report.files.length === 1 ? 'file' : 'files'}`;
  const rows = `${report.rows.toLocaleString('en-US')} ${report.rows === 1 ? 'row' : 'rows'}`;
  const verdict = report.status === 'pass' ? 'PASS' : 'FAIL';
  const found = report.violations.length === 0 ? 'no violations' : `${report.violations.length} ${report.violations.length === 1 ? 'violation' : 'violations'}`;
  return `${verdict} ${name} ${version}: ${files}, ${rows}, ${found} (checked at ${report.checked_at})`;
}

/** One violation as the text report shows it: rule and message, then a few samples. */
export function describeViolation(violation: Violation): string[] {
  const where = violation.column === undefined ? violation.rule : `${violation.rule} ${violation.column}`;
  // A message's further lines (a `fix:` line) sit under the first, where the samples go too.
  const [first, ...rest] = violation.message.split('\n');
  const lines = [`  ✗ ${where}: ${first}`, ...rest.map((line) => `      ${line}`)];
  const shown = violation.samples.slice(0, SAMPLES_SHOWN).map(formatSample);
  if (shown.length > 0) {
    const more = violation.samples.length > SAMPLES_SHOWN ? ', …' : '';
    lines.push(`      e.g. ${shown.join('; ')}${more}`);
  }
  return lines;
}

function formatSample(sample: Sample): string {
  const place = sample.row === null ? sample.file : `${sample.file} row ${sample.row}`;
  return sample.value === null ? place : `${place}: ${JSON.stringify(sample.value)}`;
}
