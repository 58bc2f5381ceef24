import type { Report, Sample, Violation } from './report.js';

const SAMPLES_SHOWN = 3;

/** A verdict short enough for a CI log: one headline, then one entry per violation. */
export function formatTextReport(report: Report): string {
  const lines = [headline(report), ...footnotes(report)];
  for (const violation of report.violations) lines.push(...describeViolation(violation));
  return `${lines.join('\n')}\n`;
}

function headline(report: Report): string {
  const { name, version } = report.contract;
  const files = `${report.files.length} ${report.files.length === 1 ? 'file' : 'files'}`;
  const rows = `${report.rows.toLocaleString('en-US')} ${report.rows === 1 ? 'row' : 'rows'}`;
  const verdict = { pass: 'PASS', warn: 'WARN', fail: 'FAIL' }[report.status];
  const errors = report.violations.filter((v) => v.severity === 'error').length;
  const warnings = report.violations.length - errors;
  const found = report.violations.length === 0 ? ['no violations'] : [
    ...(errors > 0 ? [`${errors} ${errors === 1 ? 'violation' : 'violations'}`] : []),
    ...(warnings > 0 ? [`${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`] : []),
  ];
  return `${verdict} ${name} ${version}: ${files}, ${rows}, ${found.join(', ')} (checked at ${report.checked_at})`;
}

/** What the row tolerance did, and notes (a rule skipped), under the headline. */
function footnotes(report: Report): string[] {
  const { tolerance } = report;
  const lines: string[] = [];
  if (tolerance?.withheld) lines.push(`  ${tolerance.invalid_rows} invalid ${tolerance.invalid_rows === 1 ? 'row' : 'rows'} would be withheld and the rest published (tolerance ${tolerance.tolerance}: up to ${tolerance.allowed_rows} rows)`);
  else if (tolerance) lines.push(`  ${tolerance.invalid_rows} invalid rows: more than the ${tolerance.allowed_rows} the tolerance ${tolerance.tolerance} allows, so the whole batch fails`);
  for (const note of report.notes ?? []) lines.push(`  note: ${note}`);
  return lines;
}

/** One violation as the text report shows it: rule and message, then a few samples. */
export function describeViolation(violation: Violation): string[] {
  const where = violation.column === undefined ? violation.rule : `${violation.rule} ${violation.column}`;
  // A message's further lines (a `fix:` line) sit under the first, where the samples go too.
  const [first, ...rest] = violation.message.split('\n');
  const lines = [`  ${violation.severity === 'warning' ? '⚠ warning' : '✗'} ${where}: ${first}`, ...rest.map((line) => `      ${line}`)];
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
