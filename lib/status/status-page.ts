import { count, html, htmlPage, type Html } from '../report/html.js';
import type { CellState, DatasetStatus, LakeStatus, NoticeEntry, PartitionCell } from './lake-status.js';
import { NOTICE_WORDS, STATE_WORDS } from './state-words.js';
import type { LinkStyle } from './status-links.js';
import { volumeChart } from './volume-chart.js';

export interface StatusPageOptions {
  readonly links: LinkStyle;
  /** For `serve`: the browser reloads the page this often. */
  readonly refreshSeconds?: number;
}

/** The status page: per dataset version a calendar of partitions and a row-count chart, then the notices. No script. */
export function statusPage(status: LakeStatus, options: StatusPageOptions): string {
  const body = html`<main>
<h1>Lake status</h1>
<p class="meta">${status.location} · made at ${status.generated_at} · ${count(status.datasets.length)} ${status.datasets.length === 1 ? 'dataset version' : 'dataset versions'}</p>
<ul class="legend" aria-label="States">${Object.entries(STATE_WORDS).map(([state, words]) => html`<li class="${state}">${words.symbol} ${words.word}</li>`)}</ul>
${status.datasets.length === 0 && html`<p>Nothing is in this lake yet: no contract, and no partition under staging, published or quarantine.</p>`}
${status.datasets.length > 1 && html`<nav aria-label="Datasets"><ul>${status.datasets.map((d) => html`<li><a href="#${anchor(d)}">${d.dataset} v${d.major}</a></li>`)}</ul></nav>`}
${status.datasets.map((dataset) => datasetSection(dataset, options.links))}
${notices(status.notices)}
${status.problems.length > 0 && html`<h2>Records that could not be read</h2><ul class="problems">${status.problems.map((p) => html`<li>${p}</li>`)}</ul>`}
</main>`;
  return htmlPage(`Lake status: ${status.location}`, body, options.refreshSeconds === undefined ? {} : { refreshSeconds: options.refreshSeconds });
}

const anchor = (d: DatasetStatus): string => `dataset-${encodeURIComponent(d.dataset)}-v${d.major}`;

function datasetSection(dataset: DatasetStatus, links: LinkStyle): Html {
  const { contract } = dataset;
  return html`<section id="${anchor(dataset)}" class="dataset" data-dataset="${dataset.dataset}" data-major="${dataset.major}">
<h2>${dataset.dataset} v${dataset.major}</h2>
<p class="meta">${contract ? `contract ${contract.version}, owner ${contract.owner}` : 'no contract of this major version in the registry'} · ${tally(dataset.cells)}</p>
${dataset.cells.length === 0
    ? html`<p>No partition yet.</p>`
    : html`<ol class="calendar" aria-label="The last ${dataset.cells.length === 1 ? 'partition' : `${dataset.cells.length} partitions`} of ${dataset.dataset} v${dataset.major}, oldest first">${dataset.cells.map((cell) => calendarCell(cell, links))}</ol>`}
${volumeChart(dataset, `${anchor(dataset)}-chart`)}
</section>`;
}

function calendarCell(cell: PartitionCell, links: LinkStyle): Html {
  const words = STATE_WORDS[cell.state];
  // Late means it came after the probe paged it missed; a missed one still is just missed.
  const late = cell.late && cell.state !== 'missed_sla' && cell.state !== 'waiting' ? ' (late)' : '';
  const title = [cell.detail, cell.at && `at ${cell.at}`].filter(Boolean).join(' · ');
  return html`<li data-state="${cell.state}" data-partition="${cell.partition}"><a class="${cell.state}" href="${links.href(cell.link)}" title="${title}">
<span class="cell-state">${words.symbol} ${words.word}${late}</span>
<span class="cell-partition">${cell.partition}</span>
${cell.rows !== undefined && html`<span class="cell-rows">${count(cell.rows)} ${cell.rows === 1 ? 'row' : 'rows'}${cell.attempts !== undefined && cell.attempts > 1 ? ` · ${cell.attempts} attempts` : ''}</span>`}
${cell.at !== undefined && html`<span class="cell-rows">${AT_WORD[cell.state]} ${shortTime(cell.at)}</span>`}
</a></li>`;
}

const AT_WORD: Readonly<Record<CellState, string>> = {
  published: 'at', published_with_warnings: 'at', quarantined: 'checked', in_staging: 'since', missed_sla: 'due', waiting: 'due',
};

/** `2026-11-30 05:00Z`: a cell is narrow; the full instant is in the title and the records. */
function shortTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]}Z` : iso;
}

/** `12 published, 1 quarantined`: the calendar in words. */
function tally(cells: readonly PartitionCell[]): string {
  if (cells.length === 0) return 'no partitions';
  const counts = new Map<CellState, number>();
  for (const cell of cells) counts.set(cell.state, (counts.get(cell.state) ?? 0) + 1);
  return (Object.keys(STATE_WORDS) as CellState[]).filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${STATE_WORDS[s].word}`).join(', ');
}

function notices(list: readonly NoticeEntry[]): Html {
  if (list.length === 0) return html`<h2>Notifications</h2><p>No notification has been sent.</p>`;
  return html`<h2>Notifications</h2>
<p class="meta">The last ${list.length}, newest first, from the gate's and the SLA probe's records.</p>
<table class="notices">
<thead><tr><th scope="col" style="width:15%">When</th><th scope="col" style="width:14%">Kind</th><th scope="col" style="width:20%">Dataset</th><th scope="col">Subject</th><th scope="col" style="width:11%">State</th></tr></thead>
<tbody>${list.map((n) => html`<tr data-kind="${n.kind}"><td><time datetime="${n.at}">${shortTime(n.at)}</time></td><td>${NOTICE_WORDS[n.kind].symbol} ${NOTICE_WORDS[n.kind].word}</td><td>${n.dataset} ${n.version}${n.partition !== undefined && html`<br><code>${n.partition}</code>`}</td><td>${n.subject}</td><td>${n.state === 'sent' ? '✓ sent' : '◐ sending (not confirmed)'}</td></tr>`)}</tbody>
</table>`;
}
