/// <reference lib="dom" />
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { localNotifier } from '../../lib/notify/local-notifier.js';
import { registryContracts } from '../../lib/registry/registry-contracts.js';
import { runProbe } from '../../lib/sla/probe.js';
import { writerVariant, type LogicalTable } from '../writers/index.js';
import { CHROMIUM, CHROMIUM_SKIP, launchChromium, overflowsSideways, screenshot } from './chromium.js';

// The status page of a lake built through the local gate, loaded in a real browser: every state,
// the counts, the chart and the notices, and every link followed. Data is written by DuckDB.

const NOW = Date.parse('2026-11-30T12:00:00Z');
const CONTRACT = `name: shipments
version: 1.4.0
owner: { team: logistics, notify: [ops@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  grain: [shipment_id]
  columns:
    - { name: shipment_id, type: int64, required: true }
    - { name: carrier, type: string, required: true, enum: [ups, dhl, fedex] }
    - { name: weight_kg, type: float64, min: 0, max: 500 }
    - { name: note, type: string, max_length: 12, severity: warn }
sla:
  arrival_by: "06:00"
  timezone: UTC
  min_rows: 50
  max_rows: 400
`;
// A partition path as long as a template makes one (a literal segment and two placeholders).
const LONG_TEMPLATE = 'source=eu-west-1-replica-of-the-legacy-warehouse-cluster-number-seven/dt={ds}/hr={hh}';
const LONG = 'source=eu-west-1-replica-of-the-legacy-warehouse-cluster-number-seven/dt=2026-11-29/hr=23';
const REPLICAS = `name: replicas
version: 2.0.0
owner: { team: warehouse, notify: [dw@example.com] }
produces: { format: parquet, partition: "${LONG_TEMPLATE}" }
schema:
  columns:
    - { name: shipment_id, type: int64, required: true }
`;
const EXPECTED: Record<string, string> = {
  'dt=2026-11-25': 'published',
  'dt=2026-11-26': 'published_with_warnings',
  'dt=2026-11-27': 'quarantined',
  'dt=2026-11-28': 'missed_sla',
  'dt=2026-11-29': 'in_staging',
  'dt=2026-11-30': 'waiting',
};

const EVIL_HTML = "<script>fetch('/lake/published/shipments/v1/dt=2026-11-25/_SUCCESS', { method: 'PUT', body: 'pwned' })</script>";
let dir: string;
let gate: LocalGate;
let browser: Browser | undefined;
let page: Page;
const duckdb = writerVariant('duckdb-default');

function shipments(rows: number, edit: (i: number) => { carrier?: string; note?: string } = () => ({})): LogicalTable {
  const ids = Array.from({ length: rows }, (_, i) => i);
  return {
    rows,
    columns: [
      { name: 'shipment_id', type: 'int64', nullable: false, values: ids.map((i) => i + 1) },
      { name: 'carrier', type: 'string', nullable: false, values: ids.map((i) => edit(i).carrier ?? ['ups', 'dhl', 'fedex'][i % 3]) },
      { name: 'weight_kg', type: 'float64', nullable: true, values: ids.map((i) => (i % 50) * 1.5) },
      { name: 'note', type: 'string', nullable: true, values: ids.map((i) => edit(i).note ?? null) },
    ],
  };
}

async function stage(partition: string, table: LogicalTable, marker: boolean, dataset = 'shipments/v1'): Promise<void> {
  const path = join(dir, `${partition.replaceAll('/', '_')}.parquet`);
  await duckdb.write(table, path);
  const bytes = new Uint8Array(readFileSync(path));
  const prefix = `staging/${dataset}/${partition}/`;
  if (marker) await dropPartition(gate.store, DEFAULT_LAYOUT, prefix, [{ relative: 'part-0000.parquet', size: bytes.length, read: async () => bytes }]);
  else await gate.store.put(`${prefix}part-0000.parquet`, bytes);
  await gate.settled();
}

beforeAll(async () => {
  if (!CHROMIUM) return;
  dir = mkdtempSync(join(tmpdir(), 'cg-status-page-'));
  mkdirSync(join(dir, 'contracts'));
  writeFileSync(join(dir, 'contracts', 'shipments.v1.yaml'), CONTRACT);
  writeFileSync(join(dir, 'contracts', 'replicas.v2.yaml'), REPLICAS);
  mkdirSync(join(dir, 'lake'));
  // serve has run since before the first partition: it registered the contract then, so the probe expects every day shown.
  let clock = Date.parse('2026-11-20T00:00:00Z');
  gate = await startLocalGate({ dir: join(dir, 'lake'), contractsDir: join(dir, 'contracts'), bucket: 'lake', port: 0, clock: () => clock, print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });
  clock = NOW;
  await stage('dt=2026-11-25', shipments(120), true);
  await stage('dt=2026-11-26', shipments(150, (i) => (i % 10 === 0 ? { note: 'a note far longer than twelve' } : {})), true);
  await stage('dt=2026-11-27', shipments(90, (i) => (i === 4 ? { carrier: '<script>window.__pwned = 1</script>' } : {})), true);
  await stage('dt=2026-11-29', shipments(60), false);
  // A producer's HTML beside its data, and a checksum file the gate does not read.
  await gate.store.put('staging/shipments/v1/dt=2026-11-29/notes.html', EVIL_HTML, { contentType: 'text/html' });
  await gate.store.put('staging/shipments/v1/dt=2026-11-28/.part-0000.parquet.crc', 'crc');
  await stage(LONG, { rows: 3, columns: [{ name: 'shipment_id', type: 'int64', nullable: false, values: [1, 2, 3] }] }, true, 'replicas/v2');
  // The probe, as the schedule runs it: dt=2026-11-29 was due at 06:00 and is still not complete.
  const notifier = localNotifier({ file: join(dir, 'lake', 'notifications.jsonl'), print: () => {} });
  await runProbe({ store: gate.store, notifier, contracts: registryContracts(gate.store, { refreshMs: 0 }), layout: DEFAULT_LAYOUT, now: NOW });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const response = await page.goto(`${gate.endpoint}/_gate/`);
  expect(response?.status()).toBe(200);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await gate?.stop();
});

const cells = () => page.$$eval('section[data-dataset="shipments"] ol.calendar li', (items) => items.map((li) => ({
  partition: li.getAttribute('data-partition'),
  state: li.getAttribute('data-state'),
  text: (li as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
  href: li.querySelector('a')!.href,
})));

describe.skipIf(!CHROMIUM)(`the status page in Chromium${CHROMIUM_SKIP}`, () => {
  it('shows one cell per partition, in time order, each in its state with the word and the symbol', async () => {
    const shown = await cells();
    const byPartition = Object.fromEntries(shown.map((c) => [c.partition, c.state]));
    for (const [partition, state] of Object.entries(EXPECTED)) expect(byPartition[partition], partition).toBe(state);
    // Missed by the calendar before the probe's window, and paged by the probe: both say so.
    expect(shown.find((c) => c.partition === 'dt=2026-11-29')!.text).toContain('◐ still in staging (late)');
    // The calendar starts at the first partition (dt=2026-11-25): nothing before it was owed.
    expect(shown.filter((c) => c.state === 'missed_sla').map((c) => c.partition)).toEqual(['dt=2026-11-28']);
    expect(shown[0]!.partition).toBe('dt=2026-11-25');
    const words: Record<string, string> = { published: '✓ published', published_with_warnings: '⚠ published with warnings', quarantined: '✗ quarantined', missed_sla: '⊘ missed SLA', in_staging: '◐ still in staging', waiting: '○ not yet due' };
    for (const cell of shown) expect(cell.text.startsWith(words[cell.state!]!), cell.text).toBe(true);
    const dated = shown.map((c) => c.partition!).filter((p) => /^dt=\d{4}-\d\d-\d\d$/.test(p));
    expect(dated).toEqual([...dated].sort());
    expect(shown.find((c) => c.partition === 'dt=2026-11-25')!.text).toContain('120 rows');
    expect(shown.find((c) => c.partition === 'dt=2026-11-27')!.text).toContain('90 rows');
  });

  it('says the counts in words above the calendar, and draws the rows with the contract band', async () => {
    const meta = await page.textContent('section[data-dataset="shipments"] p.meta');
    expect(meta).toContain('contract 1.4.0, owner logistics');
    expect(meta).toMatch(/ · 1 published, 1 published with warnings, 1 quarantined, 1 still in staging, 1 missed SLA, 1 not yet due$/);
    const bars = await page.$$eval('section[data-dataset="shipments"] figure svg g', (groups) => groups.map((g) => `${g.getAttribute('class')}: ${g.querySelector('title')?.textContent}`));
    expect(bars).toContain('published: dt=2026-11-25: published, 120 rows');
    expect(bars).toContain('quarantined: dt=2026-11-27: quarantined, 90 rows');
    expect(await page.$$eval('section[data-dataset="shipments"] svg rect.band', (r) => r.length)).toBe(1);
    expect(await page.textContent('section[data-dataset="shipments"] figcaption')).toContain("the contract's min_rows 50 to max_rows 400");
  });

  it('lists the notices newest first: four verdicts and the probe\'s missed page, each sent', async () => {
    const rows = await page.$$eval('table.notices tbody tr', (trs) => trs.map((tr) => ({ kind: tr.getAttribute('data-kind'), text: (tr as HTMLElement).innerText })));
    expect(rows.filter((r) => r.kind === 'verdict')).toHaveLength(4);
    const missed = rows.filter((r) => r.kind === 'sla_missed');
    expect(missed).toHaveLength(1);
    expect(missed[0]!.text).toContain('dt=2026-11-29');
    expect(missed[0]!.text).toContain('MISSED its SLA');
    for (const row of rows) expect(row.text).toContain('✓ sent');
    const times = await page.$$eval('table.notices time', (ts) => ts.map((t) => t.getAttribute('datetime')!));
    expect(times).toEqual([...times].sort().reverse());
  });

  it('links every cell to something that opens: the _SUCCESS, the report page, the staging listing', async () => {
    for (const cell of await cells()) {
      const response = await page.request.get(cell.href);
      expect(response.status(), cell.href).toBe(200);
      const body = await response.text();
      if (cell.state === 'published' || cell.state === 'published_with_warnings') expect(JSON.parse(body).format).toBe('contract-gate/success@1');
      if (cell.state === 'quarantined') expect(response.headers()['content-type']).toContain('text/html');
      if (cell.state === 'in_staging') expect(body).toContain('part-0000.parquet');
      // At most the checksum file the gate ignores: no data.
      if (cell.state === 'missed_sla' || cell.state === 'waiting') expect(body).not.toContain('.parquet</a>');
    }
  });

  it('opens the quarantined partition\'s report page, where the <script> value is text and runs nothing', async () => {
    const quarantined = (await cells()).find((c) => c.state === 'quarantined')!;
    const report = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    await report.goto(quarantined.href);
    expect(await report.textContent('h1')).toContain('✗ FAILED');
    expect(await report.$$eval('table.rules tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-rule')))).toContain('enum');
    const values = await report.$$eval('section[data-rule="enum"] td.value', (tds) => tds.map((td) => td.textContent));
    expect(values).toContain('<script>window.__pwned = 1</script>');
    expect(await report.evaluate(() => ({ scripts: document.scripts.length, pwned: (window as { __pwned?: number }).__pwned }))).toEqual({ scripts: 0, pwned: undefined });
    await screenshot(report, 'quarantine-report-page');
    await report.close();
  });

  it('shows the dataset with a long partition template, and fits the window wide and narrow', async () => {
    const replica = await page.$$eval('section[data-dataset="replicas"] ol.calendar li', (items) => items.map((li) => li.getAttribute('data-partition')));
    expect(replica).toEqual([LONG]);
    expect(await overflowsSideways(page)).toBe(false);
    await screenshot(page, 'status-page-1280');
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await overflowsSideways(page)).toBe(false);
    await screenshot(page, 'status-page-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows a staged HTML file as text, and the endpoint runs no script of a producer\'s', async () => {
    const staged = (await cells()).find((c) => c.partition === 'dt=2026-11-29')!;
    const listing = await browser!.newPage();
    await listing.goto(staged.href);
    const link = listing.locator('a', { hasText: 'notes.html' });
    const response = await listing.request.get(new URL((await link.getAttribute('href'))!, staged.href).href);
    expect(response.headers()['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await response.text()).toBe(EVIL_HTML);
    await link.click();
    await listing.waitForLoadState();
    expect(await listing.evaluate(() => document.scripts.length)).toBe(0);
    const raw = await listing.request.get(`${gate.endpoint}/lake/staging/shipments/v1/dt=2026-11-29/notes.html`);
    expect(raw.headers()['content-security-policy']).toBe('sandbox');
    const success = await listing.request.get(`${gate.endpoint}/lake/published/shipments/v1/dt=2026-11-25/_SUCCESS`);
    expect(JSON.parse(await success.text()).format).toBe('contract-gate/success@1');
    await listing.close();
  });

  it('has no script at all', async () => {
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
  });
});
