import { describe, expect, it } from 'vitest';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { manifestText } from '../../lib/gate/manifest.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { runProbe } from '../../lib/sla/probe.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { examplePartition } from '../fixtures/example-partitions.js';
import { NOW, ordersContract, RecordingNotifier, registeredAt } from '../fixtures/gate-fixture.js';
import { useLocalBucket } from '../fixtures/local-bucket.js';

// The same data under two majors: v2 is v1 renumbered, so the example files pass or fail alike.
const v1 = ordersContract((y) => y.replace('status: active', 'status: deprecated\nsunset: 2026-12-31'));
const v2 = ordersContract((y) => y.replace('version: 1.2.0', 'version: 2.0.0'), 'orders.v2.yaml');
const contracts = contractRegistry([v1, v2]);
const DAY = 'dt=2026-11-29';
const bucket = useLocalBucket('cg-linked-', { each: true });

/** Stages one side of a dual-write drop: its files, then a manifest naming the other major. */
async function stageSide(store: ObjectStore, major: number, kind: 'good' | 'bad', partition = DAY): Promise<string> {
  const prefix = `staging/orders/v${major}/${partition}/`;
  const files = examplePartition(kind);
  for (const file of files) await store.put(`${prefix}${file.name}`, file.bytes);
  const listed = files.map((f) => ({ relative: f.name, size: f.bytes.length }));
  await store.put(`${prefix}_READY`, manifestText(listed, `drop-v${major}`, { major: major === 1 ? 2 : 1, partition }));
  return `${prefix}_READY`;
}

async function keys(store: ObjectStore, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of store.list(prefix)) found.push(object.key.slice(prefix.length));
  return found.sort();
}

describe('a linked (dual-write) drop', () => {
  it('publishes neither side when v2 fails, and tells the owner once, naming both verdicts', async () => {
    const { store } = bucket;
    const notifier = new RecordingNotifier();
    const deps = { store, notifier, contracts, clock: () => NOW };
    const first = await processMarker(deps, await stageSide(store, 1, 'good'));
    expect(first.status).toBe('awaiting_sibling');
    const second = await processMarker(deps, await stageSide(store, 2, 'bad'));
    expect(second.status).toBe('quarantined');
    expect(await keys(store, 'published/')).toEqual([]);
    expect(await keys(store, 'staging/')).toEqual([]);
    const [v1Attempt] = await keys(store, `quarantine/orders/v1/${DAY}/`);
    const report = JSON.parse(new TextDecoder().decode(await store.read(`quarantine/orders/v1/${DAY}/${v1Attempt!.split('/')[0]}/_REPORT.json`, 0, 1 << 20)));
    expect(report.violations[0].rule).toBe('linked_sibling');
    expect(notifier.notices).toHaveLength(1);
    expect(notifier.notices[0]!.subject).toBe(`[contract-gate] orders v1+v2 ${DAY} linked: v1 QUARANTINED, v2 QUARANTINED`);
    expect(notifier.notices[0]!.body).toContain(`orders v1 ${DAY}: QUARANTINED: failed: its linked sibling orders v2 ${DAY} failed`);
    expect(notifier.notices[0]!.attributes).toMatchObject({ version: 'v1+v2', outcome: 'quarantined', partition: DAY });
  });

  it('publishes both sides, each with its _SUCCESS, when both pass', async () => {
    const { store } = bucket;
    const notifier = new RecordingNotifier();
    const deps = { store, notifier, contracts, clock: () => NOW };
    const markers = [await stageSide(store, 1, 'good'), await stageSide(store, 2, 'good')];
    // Both markers are in when the handlers start: whichever takes the leases first settles the pair.
    const results = await Promise.all(markers.map((marker) => processMarker(deps, marker)));
    expect(results.map((r) => r.status)).toEqual(['published', 'published']);
    for (const major of [1, 2]) expect(await keys(store, `published/orders/v${major}/${DAY}/`)).toEqual(['_SUCCESS', 'part-0000.parquet', 'part-0001.parquet']);
    expect(notifier.notices.map((n) => [n.attributes.version, n.attributes.outcome])).toEqual([['v1+v2', 'published']]);
  });

  it('leaves a side whose sibling never came in staging, unpublished', async () => {
    const { store } = bucket;
    const deps = { store, notifier: new RecordingNotifier(), contracts, clock: () => NOW };
    const marker = await stageSide(store, 2, 'good');
    const result = await processMarker(deps, marker);
    expect(result).toMatchObject({ status: 'awaiting_sibling', reason: expect.stringContaining(`its linked sibling orders v1 ${DAY} has no marker yet`) });
    expect(await keys(store, 'published/')).toEqual([]);
    expect(await store.head(marker)).toBeDefined();
    expect(deps.notifier.notices).toEqual([]);
  });

  it('lets the SLA probe page for a v1 side still waiting for its sibling at arrival_by', async () => {
    const { store } = bucket;
    const registered = contractRegistry([registeredAt(v1), registeredAt(v2)]);
    const deps = { store, notifier: new RecordingNotifier(), contracts: registered, clock: () => NOW };
    expect((await processMarker(deps, await stageSide(store, 1, 'good'))).status).toBe('awaiting_sibling');
    const probe = await runProbe({ store, notifier: deps.notifier, contracts: registered, layout: DEFAULT_LAYOUT, now: Date.parse('2026-11-30T05:30:00Z') });
    const v1Day = probe.partitions.find((p) => p.version === 'v1' && p.partition === DAY);
    expect(v1Day).toMatchObject({ status: 'missed', sent: ['sla_missed'] });
    expect(v1Day?.detail).toContain(`a _READY marker sits in staging/orders/v1/${DAY}/`);
  });

  it('judges each side alone once v1 is past its sunset, and says so', async () => {
    const { store } = bucket;
    const sunset = contractRegistry([ordersContract((y) => y.replace('status: active', 'status: deprecated\nsunset: 2026-11-30')), v2]);
    const deps = { store, notifier: new RecordingNotifier(), contracts: sunset, clock: () => NOW };
    const result = await processMarker(deps, await stageSide(store, 2, 'good'));
    expect(result.status).toBe('published');
    if (result.status !== 'published') return;
    const note = `judged alone, not with its linked sibling orders v1 ${DAY}: the dual-write window ended at orders v1's sunset 2026-11-30`;
    expect(result.decision.report.warnings).toContain(note);
    expect(deps.notifier.notices[0]!.body).toContain(note);
  });
});
