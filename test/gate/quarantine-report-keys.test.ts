import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import type { GateReport } from '../../lib/gate/gate-report.js';
import { dropExample, gateDeps } from '../fixtures/gate-fixture.js';

// The real gate path: the AWS SDK over HTTP to the local S3 endpoint, as `serve` runs it.
// Bytes, not '': the SDK warns that it cannot tell the length of an empty string body.
const EMPTY_MARKER = new Uint8Array();
let emulator: S3Emulator;
let store: ObjectStore;

beforeAll(async () => {
  emulator = await startS3Emulator({ dir: mkdtempSync(join(tmpdir(), 'cg-qkeys-')), buckets: ['lake'] });
  store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
});
afterAll(() => emulator.stop());

async function quarantined(prefix: string, deps = gateDeps(store)) {
  const result = await processMarker(deps, `${prefix}_READY`);
  if (result.status !== 'quarantined') throw new Error(`expected quarantine, got ${result.status}`);
  const folder = `${prefix.replace(/^staging\//, 'quarantine/')}${result.decision.attempt}/`;
  const report = JSON.parse(new TextDecoder().decode(await readWhole(store, `${folder}_REPORT.json`))) as GateReport;
  return { folder, report, notice: deps.notifier.notices[0]! };
}

describe('the report of a quarantined drop names the files where they now are', () => {
  it('gives every sample and file of _REPORT.json its quarantine key, and keeps the staging keys under source', async () => {
    const prefix = 'staging/orders/v1/dt=2026-10-01/';
    const { files } = await dropExample(store, 'bad', prefix, EMPTY_MARKER);
    const { folder, report } = await quarantined(prefix);
    const samples = report.violations.flatMap((v) => v.samples);
    expect(samples.length).toBeGreaterThan(0);
    expect(new Set(samples.map((s) => s.file))).toEqual(new Set([`${folder}part-0000.parquet`, `${folder}part-0001.parquet`]));
    expect(report.files.map((f) => f.path)).toEqual([`${folder}part-0000.parquet`, `${folder}part-0001.parquet`]);
    for (const sample of samples) expect(await store.head(sample.file)).toBeDefined();
    expect(await store.head(files[0]!.key)).toBeUndefined();
    expect(report.source.files.map((f) => f.key)).toEqual(files.map((f) => f.key));
  });

  it('quotes the quarantine keys in the samples of the notification', async () => {
    const prefix = 'staging/orders/v1/dt=2026-10-02/';
    await dropExample(store, 'bad', prefix, EMPTY_MARKER);
    const { folder, notice } = await quarantined(prefix);
    expect(notice.body).toContain(`      e.g. ${folder}part-0000.parquet row 3: "pending"`);
    expect(notice.body).not.toMatch(/e\.g\. staging\//);
  });

  it('points a refused drop at the quarantined marker', async () => {
    const prefix = 'staging/refunds/v1/dt=2026-10-03/';
    await dropExample(store, 'good', prefix, EMPTY_MARKER);
    const { folder, report, notice } = await quarantined(prefix);
    expect(report.violations).toEqual([expect.objectContaining({ rule: 'no_contract', samples: [{ file: `${folder}_READY`, row: null, value: null }] })]);
    expect(await store.head(`${folder}_READY`)).toBeDefined();
    expect(notice.body).toContain(`      e.g. ${folder}_READY`);
  });
});
