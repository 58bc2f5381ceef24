import { describe, expect, it } from 'vitest';
import type { Contract } from '../../lib/contract/model.js';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { runProbe } from '../../lib/sla/probe.js';
import { ordersContract, RecordingNotifier, registeredAt } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

// orders v2: arrival_by 06:00 Europe/Berlin (05:00 UTC in winter), each day due the next morning.
const at = (iso: string) => Date.parse(iso);
const V2 = ordersContract((y) => y.replace('version: 1.2.0', 'version: 2.0.0'), 'orders.v2.yaml');

function probe(store: MemoryObjectStore, contract: Contract, now: number, notifier = new RecordingNotifier()) {
  return runProbe({ store, notifier, contracts: contractRegistry([contract]), layout: DEFAULT_LAYOUT, now, lookbackHours: 24 });
}

describe('the probe expects partitions only from when the gate first knew the contract', () => {
  it('does not page for a day due before the contract was registered', async () => {
    const store = new MemoryObjectStore();
    const notifier = new RecordingNotifier();
    const v2 = registeredAt(V2, '2026-12-05T16:03:00Z');
    const report = await probe(store, v2, at('2026-12-05T16:10:00Z'), notifier);
    // dt=2026-12-04 was due 2026-12-05T05:00Z, eleven hours before v2 existed.
    expect(report.partitions).toEqual([]);
    expect(notifier.notices).toEqual([]);
  });

  it('pages for the first day due after the registration', async () => {
    const store = new MemoryObjectStore();
    const notifier = new RecordingNotifier();
    const v2 = registeredAt(V2, '2026-12-05T16:03:00Z');
    await probe(store, v2, at('2026-12-05T16:10:00Z'), notifier);
    const report = await probe(store, v2, at('2026-12-06T05:10:00Z'), notifier);
    expect(report.partitions.map((p) => [p.partition, p.status])).toEqual([['dt=2026-12-05', 'missed']]);
    expect(notifier.notices.map((n) => n.attributes.partition)).toEqual(['dt=2026-12-05']);
  });

  it('keeps the first moment when a later minor version is registered', async () => {
    const store = new MemoryObjectStore();
    await probe(store, registeredAt(V2, '2026-12-01T12:00:00Z'), at('2026-12-01T12:05:00Z'));
    const minor = registeredAt(ordersContract((y) => y.replace('version: 1.2.0', 'version: 2.1.0'), 'orders.v2.yaml'), '2026-12-05T09:00:00Z');
    const report = await probe(store, minor, at('2026-12-05T10:00:00Z'));
    expect(report.partitions.map((p) => [p.partition, p.status])).toEqual([['dt=2026-12-04', 'missed']]);
  });

  it('takes a contract bundled with the functions as known from the first probe run that sees it', async () => {
    const store = new MemoryObjectStore();
    expect((await probe(store, V2, at('2026-12-05T16:10:00Z'))).partitions).toEqual([]);
    const next = await probe(store, V2, at('2026-12-06T05:10:00Z'));
    expect(next.partitions.map((p) => p.partition)).toEqual(['dt=2026-12-05']);
    const record = JSON.parse(store.text('_gate/expected/orders/v2.json'));
    expect(record).toEqual({ since: '2026-12-05T16:10:00.000Z', contract: 'orders', major: 2 });
  });

  it('reads no registry for a bundled contract, as a gate that may not read one', async () => {
    const store = new MemoryObjectStore();
    const denied = Object.assign(Object.create(store) as MemoryObjectStore, {
      head: async (key: string) => {
        if (key.startsWith('_contracts/')) throw new Error(`AccessDenied: ${key}`);
        return store.head(key);
      },
    });
    expect((await probe(denied, V2, at('2026-12-06T05:10:00Z'))).partitions).toEqual([]);
  });

  it('rewrites its record weekly so the state lifecycle never expires it', async () => {
    const store = new MemoryObjectStore();
    const key = '_gate/expected/orders/v2.json';
    await probe(store, V2, at('2026-12-01T12:00:00Z'));
    const written = (await store.head(key))!.lastModified.getTime();
    await probe(store, V2, at('2026-12-03T12:00:00Z'));
    expect((await store.head(key))!.lastModified.getTime()).toBe(written);
    // The test store stamps writes with its own clock, which stands at the first write: 9 days later it is stale.
    await probe(store, V2, at('2026-12-10T12:00:00Z'));
    expect((await store.head(key))!.lastModified.getTime()).toBeGreaterThan(written);
    expect(JSON.parse(store.text(key)).since).toBe('2026-12-01T12:00:00.000Z');
  });
});
