import { describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import { manifestText } from '../../lib/gate/manifest.js';
import { dropExample, gateDeps, GOOD_PREFIX, MARKER, ordersContract } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

const PUBLISHED = 'published/orders/v1/dt=2026-11-29/';

describe('processMarker: a drop that keeps its contract', () => {
  it('publishes every file, writes _SUCCESS listing them, empties staging and notifies once', async () => {
    const store = new MemoryObjectStore();
    const { files } = await dropExample(store, 'good');
    const deps = gateDeps(store);
    const result = await processMarker(deps, MARKER);
    expect(result.status).toBe('published');
    expect(store.keys('staging/')).toEqual([]);
    expect(store.keys(PUBLISHED)).toEqual([`${PUBLISHED}_SUCCESS`, `${PUBLISHED}part-0000.parquet`, `${PUBLISHED}part-0001.parquet`]);
    for (const file of files) expect(store.objects.get(file.key.replace('staging/', 'published/'))?.body).toEqual(file.bytes);
    const success = JSON.parse(store.text(`${PUBLISHED}_SUCCESS`));
    expect(success).toMatchObject({ contract: { name: 'orders', version: '1.2.0' }, partition: 'dt=2026-11-29', rows: 1200, checks: { status: 'pass', violations: 0 } });
    expect(success.files).toEqual(files.map((f) => ({ key: f.key.replace('staging/', 'published/'), size: f.bytes.length, etag: store.objects.get(f.key.replace('staging/', 'published/'))?.info.etag })));
    expect(success.newest).toEqual({ column: 'updated_at', value: expect.stringMatching(/^2026-11-29T23:/) });
    expect(deps.notifier.notices).toHaveLength(1);
    const decision = result.status === 'published' ? result.decision : undefined;
    expect(deps.notifier.notices[0]?.attributes).toEqual({ contract: 'orders', version: 'v1', owner: 'orders-platform', outcome: 'published', severity: 'info', partition: 'dt=2026-11-29', drop: decision?.tag, attempt: decision?.attempt });
  });

  it('replaces an earlier publish of the partition (a backfill) and removes files the new drop no longer has', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    await processMarker(gateDeps(store), MARKER);
    await store.put(`${PUBLISHED}part-0009.parquet`, 'left over from an old publish');
    const first = JSON.parse(store.text(`${PUBLISHED}_SUCCESS`)).attempt;
    await dropExample(store, 'good');
    const deps = { ...gateDeps(store), clock: () => Date.parse('2026-11-30T05:30:00Z') };
    expect((await processMarker(deps, MARKER)).status).toBe('published');
    const second = JSON.parse(store.text(`${PUBLISHED}_SUCCESS`));
    expect(second.attempt).not.toBe(first);
    expect(store.keys(PUBLISHED)).toEqual([`${PUBLISHED}_SUCCESS`, `${PUBLISHED}part-0000.parquet`, `${PUBLISHED}part-0001.parquet`]);
  });

  it('checks a _READY manifest against the staged files and keeps it with the publish', async () => {
    const store = new MemoryObjectStore();
    const { files } = await dropExample(store, 'good');
    await store.put(MARKER, manifestText(files.map((f) => ({ relative: f.key.slice(GOOD_PREFIX.length), size: f.bytes.length }))));
    expect((await processMarker(gateDeps(store), MARKER)).status).toBe('published');
    expect(JSON.parse(store.text(`${PUBLISHED}_SUCCESS`)).producer_manifest.files).toHaveLength(2);
  });

  it('publishes a deprecated version with a warning in the report and the notice', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    const deps = gateDeps(store, [ordersContract((y) => y.replace('status: active', 'status: deprecated\nsunset: 2027-01-31'))]);
    const result = await processMarker(deps, MARKER);
    expect(result.status).toBe('published');
    expect(JSON.parse(store.text(`${PUBLISHED}_SUCCESS`)).checks.warnings).toEqual(['orders v1 is deprecated and will be retired on 2027-01-31; move to its successor']);
    expect(deps.notifier.notices[0]?.attributes.severity).toBe('warning');
    expect(deps.notifier.notices[0]?.body).toContain('Warning:   orders v1 is deprecated');
  });
});

describe('processMarker: a drop that breaks its contract', () => {
  it('moves the batch byte for byte to quarantine with _REPORT.json and pages the owner once', async () => {
    const store = new MemoryObjectStore();
    const { files } = await dropExample(store, 'bad');
    const deps = gateDeps(store);
    const result = await processMarker(deps, MARKER);
    if (result.status !== 'quarantined') throw new Error(`expected quarantine, got ${result.status}`);
    const folder = `quarantine/orders/v1/dt=2026-11-29/${result.decision.attempt}/`;
    expect(result.decision.attempt).toMatch(/^20261130T050000Z-[0-9a-f]{8}$/);
    expect(store.keys('staging/')).toEqual([]);
    expect(store.keys('published/')).toEqual([]);
    expect(store.keys(folder)).toEqual([`${folder}_READY`, `${folder}_REPORT.html`, `${folder}_REPORT.json`, `${folder}part-0000.parquet`, `${folder}part-0001.parquet`]);
    expect(store.text(`${folder}_REPORT.html`)).toMatch(/^<!doctype html>[\s\S]*✗ FAILED[\s\S]*enum · status: 1/);
    for (const file of files) expect(store.objects.get(file.key.replace(GOOD_PREFIX, folder))?.body).toEqual(file.bytes);
    const report = JSON.parse(store.text(`${folder}_REPORT.json`));
    expect(report.status).toBe('fail');
    expect(report.violations.map((v: { rule: string }) => v.rule)).toEqual(['required', 'required', 'enum', 'min', 'pattern', 'not_in_future', 'grain']);
    expect(report.summary).toBe('failed: 7 violations: required amount (1), required refund_amount (1), enum status (1), and 4 more');
    expect(report.source.files).toHaveLength(2);
    const [notice] = deps.notifier.notices;
    expect(deps.notifier.notices).toHaveLength(1);
    expect(notice?.attributes).toMatchObject({ outcome: 'quarantined', severity: 'critical', contract: 'orders', owner: 'orders-platform' });
    expect(notice?.subject).toBe('[contract-gate] orders v1 dt=2026-11-29 QUARANTINED: 7 violations');
    expect(notice?.body).toContain(`Report:    s3://memory/${folder}_REPORT.json`);
    expect(notice?.body).toContain(`Page:      s3://memory/${folder}_REPORT.html`);
    expect(notice?.body).toContain('✗ enum status: 1 row of status has a value not in [placed, paid, cancelled]');
  });

  it.each([
    ['a dataset with no contract', 'staging/refunds/v1/dt=2026-11-29/', [], 'no_contract'],
    ['a retired version', GOOD_PREFIX, [ordersContract((y) => y.replace('status: active', 'status: retired'))], 'retired'],
    ['a deprecated version past its sunset', GOOD_PREFIX, [ordersContract((y) => y.replace('status: active', 'status: deprecated\nsunset: 2026-11-01'))], 'retired'],
    ['a partition path that does not fit the template', 'staging/orders/v1/date=2026-11-29/', undefined, 'bad_partition'],
  ] as const)('quarantines %s with a clear report', async (_, prefix, contracts, rule) => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good', prefix);
    const deps = gateDeps(store, contracts ? [...contracts] : undefined);
    const result = await processMarker(deps, `${prefix}_READY`);
    if (result.status !== 'quarantined') throw new Error(`expected quarantine, got ${result.status}`);
    expect(result.decision.report.violations.map((v) => v.rule)).toEqual([rule]);
    expect(store.keys('staging/')).toEqual([]);
    expect(store.keys('quarantine/')).toHaveLength(5);
    expect(deps.notifier.notices).toHaveLength(1);
  });

  it('fails a drop whose manifest does not match what was staged, without validating the half upload', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good', GOOD_PREFIX, manifestText([{ relative: 'part-0000.parquet', size: 1 }, { relative: 'part-0002.parquet', size: 10 }]));
    const result = await processMarker(gateDeps(store), MARKER);
    if (result.status !== 'quarantined') throw new Error('expected quarantine');
    expect(result.decision.report.violations).toEqual([expect.objectContaining({ rule: 'manifest', count: 3 })]);
    expect(result.decision.report.violations[0]?.samples.map((s) => s.value)).toEqual([
      expect.stringMatching(/^part-0000.parquet: the manifest says 1 bytes, \d+ are staged$/),
      'part-0002.parquet: listed in the manifest but not staged',
      'part-0001.parquet: staged but not listed in the manifest',
    ]);
  });
});

describe('processMarker: delivery', () => {
  it('does nothing for a marker already carried out, and ignores keys that are not markers', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    const deps = gateDeps(store);
    await processMarker(deps, MARKER);
    expect((await processMarker(deps, MARKER)).status).toBe('nothing_to_do');
    expect((await processMarker(deps, `${GOOD_PREFIX}part-0000.parquet`)).status).toBe('ignored');
    expect(deps.notifier.notices).toHaveLength(1);
  });

  it('ends with one outcome and one notice when 8 handlers run the same drop at once', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'bad');
    const deps = gateDeps(store);
    const results = await Promise.all(Array.from({ length: 8 }, () => processMarker(deps, MARKER)));
    const attempts = new Set(results.flatMap((r) => (r.status === 'quarantined' ? [r.decision.attempt] : [])));
    expect(attempts.size).toBe(1);
    expect(store.keys('quarantine/')).toHaveLength(5);
    expect(store.keys('staging/')).toEqual([]);
    expect(deps.notifier.notices).toHaveLength(1);
  });

  it('sends the notice on a later delivery when SNS failed, and only once', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    const deps = gateDeps(store);
    deps.notifier.failNext = 1;
    await expect(processMarker(deps, MARKER)).rejects.toThrow('SNS is down');
    expect(store.keys(MARKER)).toEqual([MARKER]);
    expect((await processMarker(deps, MARKER)).status).toBe('published');
    expect(deps.notifier.notices).toHaveLength(1);
  });
});
