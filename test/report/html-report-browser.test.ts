/// <reference lib="dom" />
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { CHROMIUM, CHROMIUM_SKIP, launchChromium, overflowsSideways, screenshot } from '../status/chromium.js';
import { queryRows, sqlString, withDuckDB, writerVariant, type LogicalColumn } from '../writers/index.js';

// `validate --format html` on a failing run of an 80-column contract, opened in Chromium: what a
// reader sees is the verdict, the rules, the observed ranges beside the bounds, and the samples
// as text, a sample holding a <script> element among them. Data is written by DuckDB.

const COLUMNS = Array.from({ length: 80 }, (_, i) => `c${String(i + 1).padStart(2, '0')}`);
const ROWS = 40;
const SCRIPT = "<script>document.title = 'pwned'</script>";
const CONTRACT = `name: wide
version: 1.0.0
owner: { team: data-team, notify: [data@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  columns:
${COLUMNS.map((name) => `    - { name: ${name}, type: int64, required: true, min: 0, max: 1000 }`).join('\n')}
    - { name: label, type: string, required: true, enum: [a, b] }
`;

let dir: string;
let browser: Browser | undefined;
let page: Page;
let run: { code: number; stdout: string };

async function cli(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: () => undefined, isTTY: false };
  return { code: await runCli(args, io), stdout };
}

function wideTable(): { rows: number; columns: LogicalColumn[] } {
  const ids = Array.from({ length: ROWS }, (_, i) => i);
  const columns: LogicalColumn[] = COLUMNS.map((name, c) => ({
    name, type: 'int64', nullable: false,
    values: ids.map((i) => (name === 'c05' && i === 3 ? -1 : name === 'c80' && i === 9 ? 5000 : (i * 37 + c * 11) % 1001)),
  }));
  columns.push({ name: 'label', type: 'string', nullable: false, values: ids.map((i) => (i === 7 ? SCRIPT : i % 2 ? 'a' : 'b')) });
  return { rows: ROWS, columns };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-html-report-'));
  writeFileSync(join(dir, 'wide.v1.yaml'), CONTRACT);
  mkdirSync(join(dir, 'dt=2026-11-30'));
  await writerVariant('duckdb-default').write(wideTable(), join(dir, 'dt=2026-11-30', 'part-0000.parquet'));
  run = await cli(['validate', '--contract', join(dir, 'wide.v1.yaml'), join(dir, 'dt=2026-11-30'), '--format', 'html', '--out', join(dir, 'report.html'), '--now', '2026-11-30T06:00:00Z']);
  if (!CHROMIUM) return;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(pathToFileURL(join(dir, 'report.html')).href);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('validate --format html', () => {
  it('writes the page to --out, prints the headline and where the page is, and exits 1 on a failing run', () => {
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`FAIL wide 1.0.0: 1 file, 40 rows, 3 violations (checked at 2026-11-30T06:00:00Z)\n  report: ${join(dir, 'report.html')}\n`);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('prints the page on stdout without --out, with the sample escaped', async () => {
    const printed = await cli(['validate', '--contract', join(dir, 'wide.v1.yaml'), join(dir, 'dt=2026-11-30'), '--format', 'html', '--now', '2026-11-30T06:00:00Z']);
    expect(printed.code).toBe(1);
    expect(printed.stdout).toContain('&lt;script&gt;document.title = &#39;pwned&#39;&lt;/script&gt;');
    expect(printed.stdout).not.toContain(SCRIPT);
  });
});

describe.skipIf(!CHROMIUM)(`the HTML report in Chromium${CHROMIUM_SKIP}`, () => {
  it('shows the verdict and the contract, and one row per broken rule with its count', async () => {
    expect(await page.textContent('h1')).toBe('✗ FAILED wide 1.0.0');
    const rules = await page.$$eval('table.rules tbody tr', (trs) => trs.map((tr) => (tr as HTMLElement).innerText.split('\t').map((s) => s.trim())));
    expect(rules).toEqual([['enum', 'label', '✗ error', '1'], ['min', 'c05', '✗ error', '1'], ['max', 'c80', '✗ error', '1']]);
  });

  it('puts every ranged column\'s observed min and max beside its bounds, as DuckDB computes them', async () => {
    const ranges = await page.$$eval('table.ranges tbody tr', (trs) => trs.map((tr) => [tr.getAttribute('data-column'), ...Array.from(tr.children).slice(1).map((td) => td.textContent)]));
    expect(ranges).toHaveLength(80);
    const [expected] = await withDuckDB((db) => queryRows(db, `SELECT ${COLUMNS.map((c) => `min(${c})::VARCHAR AS ${c}_min, max(${c})::VARCHAR AS ${c}_max`).join(', ')} FROM read_parquet(${sqlString(join(dir, 'dt=2026-11-30', 'part-0000.parquet'))})`));
    for (const row of ranges) {
      const column = row[0]!;
      const within = column === 'c05' ? '✗ no: min' : column === 'c80' ? '✗ no: max' : '✓ yes';
      expect(row, column).toEqual([column, expected![`${column}_min`], expected![`${column}_max`], '0', '1000', within]);
    }
  });

  it('shows the <script> sample as text, and the page runs no script at all', async () => {
    const samples = await page.$$eval('section[data-rule="enum"] table.samples tbody tr', (trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)));
    expect(samples).toEqual([[join(dir, 'dt=2026-11-30', 'part-0000.parquet'), '7', SCRIPT]]);
    expect(await page.evaluate(() => ({ scripts: document.scripts.length, title: document.title }))).toEqual({ scripts: 0, title: 'FAILED: wide 1.0.0' });
  });

  it('fits the window wide and narrow, with 80 columns and long file paths', async () => {
    expect(await overflowsSideways(page)).toBe(false);
    await screenshot(page, 'html-report-1280');
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await overflowsSideways(page)).toBe(false);
    await screenshot(page, 'html-report-390');
  });
});
