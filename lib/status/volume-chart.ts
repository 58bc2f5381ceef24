import { count, html, type Html } from '../report/html.js';
import type { DatasetStatus } from './lake-status.js';
import { STATE_WORDS } from './state-words.js';

const WIDTH = 640;
const HEIGHT = 180;
const PAD = { left: 88, right: 12, top: 18, bottom: 24 };

/**
 * Rows per partition as bars, with the contract's `min_rows`..`max_rows` band behind them. Each
 * bar carries its state's symbol above it and a title with the partition, state and rows, so the
 * chart reads without its colours; partitions without rows (missed, waiting) leave a gap.
 */
export function volumeChart(dataset: DatasetStatus, id: string): Html | undefined {
  const counted = dataset.cells.filter((cell) => cell.rows !== undefined);
  if (counted.length === 0) return undefined;
  const { minRows, maxRows } = dataset.contract ?? {};
  const most = Math.max(1, ...counted.map((cell) => cell.rows!), minRows ?? 0);
  // A max_rows far above the data would flatten every bar: then the band runs off the top, labelled.
  const maxShown = maxRows !== undefined && maxRows <= most * 3 ? maxRows : undefined;
  const top = Math.max(most, maxShown ?? 0) * 1.15;
  const y = (rows: number) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - rows / top);
  const slot = (WIDTH - PAD.left - PAD.right) / dataset.cells.length;
  const bars = dataset.cells.map((cell, i) => {
    if (cell.rows === undefined) return undefined;
    const width = Math.min(slot * 0.7, 36);
    const x = PAD.left + i * slot + (slot - width) / 2;
    const words = STATE_WORDS[cell.state];
    return html`<g class="${cell.state}"><title>${cell.partition}: ${words.word}, ${count(cell.rows)} rows</title><rect class="bar" x="${x.toFixed(1)}" y="${y(cell.rows).toFixed(1)}" width="${width.toFixed(1)}" height="${(y(0) - y(cell.rows)).toFixed(1)}"></rect><text class="bar-symbol" x="${(x + width / 2).toFixed(1)}" y="${(y(cell.rows) - 3).toFixed(1)}" text-anchor="middle">${words.symbol}</text></g>`;
  });
  const band = dataset.contract ? bandText(minRows, maxRows) : '; no contract of this major version is registered, so no row-count band';
  const caption = `Rows per partition of ${dataset.dataset} v${dataset.major}${band}.`;
  return html`<figure>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}" font-size="11">
${bandShape(minRows, maxRows, maxShown, y)}
<line x1="${PAD.left}" y1="${y(0).toFixed(1)}" x2="${WIDTH - PAD.right}" y2="${y(0).toFixed(1)}" stroke="#57606a"></line>
<text x="${PAD.left - 6}" y="${(y(0) + 4).toFixed(1)}" text-anchor="end">0</text>
<text x="${PAD.left - 6}" y="${(y(most) + 4).toFixed(1)}" text-anchor="end">${count(most)}</text>
<line x1="${PAD.left - 3}" y1="${y(most).toFixed(1)}" x2="${PAD.left}" y2="${y(most).toFixed(1)}" stroke="#57606a"></line>
${bars}
<text x="${PAD.left}" y="${HEIGHT - 6}">${axisLabel(dataset.cells[0]!.partition)}</text>
${dataset.cells.length > 1 && html`<text x="${WIDTH - PAD.right}" y="${HEIGHT - 6}" text-anchor="end">${axisLabel(dataset.cells.at(-1)!.partition)}</text>`}
</svg>
<figcaption id="${id}">${caption}</figcaption>
</figure>`;
}

/** SVG text does not wrap: a long path keeps its end, where the date is. */
function axisLabel(partition: string): string {
  return partition.length <= 40 ? partition : `…${partition.slice(-39)}`;
}

function bandShape(minRows: number | undefined, maxRows: number | undefined, maxShown: number | undefined, y: (rows: number) => number): Html | undefined {
  if (minRows === undefined && maxRows === undefined) return undefined;
  const low = y(minRows ?? 0);
  const high = maxShown === undefined ? PAD.top : y(maxShown);
  const line = (rows: number, label: string) => html`<line class="band-edge" x1="${PAD.left}" y1="${y(rows).toFixed(1)}" x2="${WIDTH - PAD.right}" y2="${y(rows).toFixed(1)}"></line><text x="${PAD.left - 6}" y="${(y(rows) + 4).toFixed(1)}" text-anchor="end">${label}</text>`;
  return html`<rect class="band" x="${PAD.left}" y="${high.toFixed(1)}" width="${WIDTH - PAD.left - PAD.right}" height="${(low - high).toFixed(1)}"></rect>
${minRows !== undefined && line(minRows, `min ${count(minRows)}`)}
${maxShown !== undefined && line(maxShown, `max ${count(maxShown)}`)}
${maxRows !== undefined && maxShown === undefined && html`<text x="${WIDTH - PAD.right - 4}" y="${PAD.top - 5}" text-anchor="end">max_rows ${count(maxRows)} is above the chart ↑</text>`}`;
}

function bandText(minRows: number | undefined, maxRows: number | undefined): string {
  if (minRows === undefined && maxRows === undefined) return '; the contract sets no row-count band';
  const parts = [minRows !== undefined && `min_rows ${count(minRows)}`, maxRows !== undefined && `max_rows ${count(maxRows)}`].filter(Boolean);
  return `; the shaded band is the contract's ${parts.join(' to ')}`;
}
