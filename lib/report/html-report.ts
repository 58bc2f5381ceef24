import { count, html, htmlPage, type Html } from './html.js';
import type { ObservedRange, Report, ReportStatus, Sample, SampleValue, Violation } from './report.js';

/**
 * What the page needs of a report: the engine's (`validate --format html`) or the gate's
 * `_REPORT.json`, which adds a summary, the attempt and where the batch came from.
 */
export interface ReportPageInput extends Omit<Report, 'contract'> {
  readonly contract: { readonly name: string; readonly version: string | null };
  readonly summary?: string;
  readonly attempt?: string;
  readonly warnings?: readonly string[];
  readonly source?: { readonly location: string; readonly marker: { readonly key: string } };
}

const VERDICT: Record<ReportStatus, { readonly symbol: string; readonly word: string }> = {
  pass: { symbol: '✓', word: 'PASSED' },
  warn: { symbol: '⚠', word: 'PASSED WITH WARNINGS' },
  fail: { symbol: '✗', word: 'FAILED' },
};

/** One self-contained page: no script, no network; every value from the data is escaped. */
export function htmlReport(report: ReportPageInput): string {
  const verdict = VERDICT[report.status];
  const title = `${verdict.word}: ${report.contract.name} ${report.contract.version ?? ''}`.trim();
  return htmlPage(title, html`<main>
<h1><span class="badge ${report.status}">${verdict.symbol} ${verdict.word}</span> ${report.contract.name} ${report.contract.version ?? '(no contract version)'}</h1>
${report.summary !== undefined && html`<p class="meta">${report.summary}</p>`}
${facts(report)}
${footnotes(report)}
${violationIndex(report.violations)}
${report.observed && ranges(report.observed, report.violations)}
${report.violations.map(violationSection)}
${files(report)}
</main>`);
}

function facts(report: ReportPageInput): Html {
  const { tolerance } = report;
  return html`<dl class="facts">
<dt>Contract</dt><dd>${report.contract.name} ${report.contract.version ?? ''}</dd>
<dt>Verdict</dt><dd class="${report.status}">${VERDICT[report.status].symbol} ${VERDICT[report.status].word}</dd>
<dt>Rows</dt><dd>${count(report.rows)}</dd>
<dt>Files</dt><dd>${count(report.files.length)}</dd>
<dt>Checked at</dt><dd>${report.checked_at}</dd>
${report.attempt !== undefined && html`<dt>Attempt</dt><dd><code>${report.attempt}</code></dd>`}
${report.source && html`<dt>Marker</dt><dd><code>${report.source.location}/${report.source.marker.key}</code></dd>`}
${tolerance && html`<dt>Row tolerance</dt><dd>${tolerance.tolerance}: ${count(tolerance.invalid_rows)} invalid of ${count(tolerance.allowed_rows)} allowed; ${tolerance.withheld ? 'the invalid rows are withheld and the rest published' : 'the whole batch fails'}</dd>`}
</dl>`;
}

function footnotes(report: ReportPageInput): Html | undefined {
  const lines = [...(report.warnings ?? []), ...(report.notes ?? [])];
  if (lines.length === 0) return undefined;
  return html`<h2>Notes</h2><ul>${lines.map((line) => html`<li>${line}</li>`)}</ul>`;
}

function violationIndex(violations: readonly Violation[]): Html {
  if (violations.length === 0) return html`<h2>Rules</h2><p class="pass">✓ Every rule of the contract holds.</p>`;
  return html`<h2>Rules broken</h2>
<table class="rules">
<thead><tr><th scope="col" style="width:30%">Rule</th><th scope="col">Column</th><th scope="col" style="width:16%">Severity</th><th scope="col" class="num" style="width:14%">Count</th></tr></thead>
<tbody>${violations.map((v, i) => html`<tr data-rule="${v.rule}"><td><a href="#violation-${i}">${v.rule}</a></td><td>${v.column ?? '—'}</td><td>${severity(v)}</td><td class="num">${count(v.count)}</td></tr>`)}</tbody>
</table>`;
}

function severity(violation: Violation): Html {
  return violation.severity === 'warning' ? html`<span class="warning">⚠ warning</span>` : html`<span class="error">✗ error</span>`;
}

/** Observed min/max beside the bounds; a column whose range rule broke says which. */
function ranges(observed: readonly ObservedRange[], violations: readonly Violation[]): Html {
  const broken = (column: string) => violations.filter((v) => v.column === column && (v.rule === 'min' || v.rule === 'max' || v.rule === 'not_in_future'));
  return html`<h2>Observed ranges</h2>
<table class="ranges">
<thead><tr><th scope="col" style="width:18%">Column</th><th scope="col">Observed min</th><th scope="col">Observed max</th><th scope="col">Allowed min</th><th scope="col">Allowed max</th><th scope="col" style="width:14%">Within bounds</th></tr></thead>
<tbody>${observed.map((range) => {
    const hits = broken(range.column);
    const verdict = hits.length === 0 ? html`<span class="pass">✓ yes</span>` : html`<span class="${hits[0]!.severity}">${hits[0]!.severity === 'warning' ? '⚠' : '✗'} no: ${[...new Set(hits.map((v) => v.rule))].join(', ')}</span>`;
    return html`<tr data-column="${range.column}"><th scope="row">${range.column}</th><td class="value">${range.min ?? '(no value)'}</td><td class="value">${range.max ?? '(no value)'}</td><td class="value">${range.allowed_min ?? '—'}</td><td class="value">${range.allowed_max ?? '—'}</td><td>${verdict}</td></tr>`;
  })}</tbody>
</table>`;
}

function violationSection(violation: Violation, index: number): Html {
  const where = violation.column === undefined ? violation.rule : `${violation.rule} · ${violation.column}`;
  return html`<section id="violation-${index}" class="violation" data-rule="${violation.rule}">
<h3>${severity(violation)} ${where}: ${count(violation.count)}</h3>
<p class="message">${violation.message}</p>
${violation.samples.length > 0 && samples(violation.samples, violation.count)}
</section>`;
}

function samples(list: readonly Sample[], total: number): Html {
  return html`<table class="samples">
${list.length < total && html`<caption class="meta">${count(list.length)} samples of ${count(total)}</caption>`}
<thead><tr><th scope="col" style="width:45%">File</th><th scope="col" class="num" style="width:12%">Row</th><th scope="col">Value</th></tr></thead>
<tbody>${list.map((s) => html`<tr><td class="value">${s.file}</td><td class="num">${s.row === null ? '—' : s.row}</td><td class="value">${sampleText(s.value)}</td></tr>`)}</tbody>
</table>`;
}

function sampleText(value: SampleValue): string {
  if (value === null) return '(no value)';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function files(report: ReportPageInput): Html {
  return html`<h2>Files</h2>
<table class="files">
<thead><tr><th scope="col">Path</th><th scope="col" class="num" style="width:15%">Rows</th><th scope="col" class="num" style="width:17%">Bytes</th></tr></thead>
<tbody>${report.files.map((f) => html`<tr><td class="value">${f.path}</td><td class="num">${count(f.rows)}</td><td class="num">${count(f.bytes)}</td></tr>`)}</tbody>
</table>`;
}
