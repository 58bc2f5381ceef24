import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { s3Notification } from '../../lib/local/s3-notification.js';
import { examplePartition } from '../fixtures/example-partitions.js';

const NOW = Date.parse('2026-11-30T05:00:00Z');
let gate: LocalGate;
let dir: string;
const printed: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-serve-'));
  gate = await startLocalGate({ dir, contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => NOW, print: (line) => printed.push(line) });
});
afterAll(() => gate.stop());

async function drop(kind: 'good' | 'bad', partition: string) {
  const prefix = `staging/orders/v1/${partition}/`;
  const files = examplePartition(kind).map((f) => ({ relative: f.name, size: f.bytes.length, read: async () => f.bytes }));
  return dropPartition(gate.store, DEFAULT_LAYOUT, prefix, files);
}

async function keys(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of gate.store.list(prefix)) found.push(object.key);
  return found;
}

function notifications(partition: string) {
  const lines = readFileSync(join(dir, 'notifications.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return lines.filter((n) => n.attributes.partition === partition);
}

async function markerEvent(marker: string) {
  const info = await gate.store.head(marker);
  return s3Notification({ bucket: 'lake', key: marker, size: info?.size ?? 0, etag: info?.etag ?? '""', eventName: 'ObjectCreated:Put', eventTime: new Date(NOW).toISOString() });
}

describe('contract-gate serve: the whole gate on a local S3 endpoint', () => {
  it('publishes a good partition with _SUCCESS once its _READY marker lands', async () => {
    await drop('good', 'dt=2026-11-29');
    await gate.settled();
    expect(await keys('published/orders/v1/dt=2026-11-29/')).toEqual([
      'published/orders/v1/dt=2026-11-29/_SUCCESS',
      'published/orders/v1/dt=2026-11-29/part-0000.parquet',
      'published/orders/v1/dt=2026-11-29/part-0001.parquet',
    ]);
    expect(await keys('staging/orders/v1/dt=2026-11-29/')).toEqual([]);
    expect(notifications('dt=2026-11-29').map((n) => n.attributes.outcome)).toEqual(['published']);
    expect(printed.some((line) => /orders v1 dt=2026-11-29: PUBLISHED/.test(line))).toBe(true);
  });

  it('quarantines a bad partition with _REPORT.json and writes one notification', async () => {
    await drop('bad', 'dt=2026-11-28');
    await gate.settled();
    const quarantined = await keys('quarantine/orders/v1/dt=2026-11-28/');
    expect(quarantined.map((k) => k.replace(/\/\d{8}T\d{6}Z-[0-9a-f]{8}\//, '/<attempt>/'))).toEqual([
      'quarantine/orders/v1/dt=2026-11-28/<attempt>/_READY',
      'quarantine/orders/v1/dt=2026-11-28/<attempt>/_REPORT.html',
      'quarantine/orders/v1/dt=2026-11-28/<attempt>/_REPORT.json',
      'quarantine/orders/v1/dt=2026-11-28/<attempt>/part-0000.parquet',
      'quarantine/orders/v1/dt=2026-11-28/<attempt>/part-0001.parquet',
    ]);
    const reportKey = quarantined.find((k) => k.endsWith('_REPORT.json'))!;
    const report = JSON.parse(new TextDecoder().decode(await gate.store.read(reportKey, 0, (await gate.store.head(reportKey))!.size)));
    expect(report.violations).toHaveLength(7);
    const [notice] = notifications('dt=2026-11-28');
    expect(notifications('dt=2026-11-28')).toHaveLength(1);
    expect(notice.attributes).toMatchObject({ outcome: 'quarantined', severity: 'critical' });
  });

  it('ends with one outcome and one notification when the event arrives 5 times and 8 handlers run at once', async () => {
    const { marker } = await drop('bad', 'dt=2026-11-27');
    const event = await markerEvent(marker);
    await Promise.all(Array.from({ length: 8 }, () => gate.deliver(event)));
    await gate.settled();
    for (let i = 0; i < 5; i++) await gate.deliver(event);
    const folders = new Set((await keys('quarantine/orders/v1/dt=2026-11-27/')).map((k) => k.split('/')[4]));
    expect(folders.size).toBe(1);
    expect(await keys('published/orders/v1/dt=2026-11-27/')).toEqual([]);
    expect(await keys('staging/orders/v1/dt=2026-11-27/')).toEqual([]);
    expect(notifications('dt=2026-11-27')).toHaveLength(1);
  });
});
