import { describe, expect, it } from 'vitest';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { runProbe } from '../../lib/sla/probe.js';
import { dropExample, ordersContract, RecordingNotifier, registeredAt } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

// v1 is being replaced: v2 renames amount to amount_eur. Both run until v1's sunset.
const v1 = ordersContract((y) => y.replace('status: active', 'status: deprecated\nsunset: 2026-12-31'));
const v2 = ordersContract((y) => y.replace('version: 1.2.0', 'version: 2.0.0').replace('name: amount,', 'name: amount_eur,'), 'orders.v2.yaml');
// Both registered long before the probe runs, so it expects every partition it looks at.
const contracts = contractRegistry([registeredAt(v1), registeredAt(v2)]);
const NOW = Date.parse('2026-11-30T05:00:00Z');

describe('two major versions side by side', () => {
  it('validates each path against its own version: v1 passes with a warning, v2 wants its new column', async () => {
    const store = new MemoryObjectStore();
    const notifier = new RecordingNotifier();
    await dropExample(store, 'good', 'staging/orders/v1/dt=2026-11-29/');
    await dropExample(store, 'good', 'staging/orders/v2/dt=2026-11-29/');
    const first = await processMarker({ store, notifier, contracts, clock: () => NOW }, 'staging/orders/v1/dt=2026-11-29/_READY');
    const second = await processMarker({ store, notifier, contracts, clock: () => NOW }, 'staging/orders/v2/dt=2026-11-29/_READY');
    expect(first.status).toBe('published');
    expect(second.status).toBe('quarantined');
    if (second.status !== 'quarantined') return;
    expect(second.decision.report.violations.map((v) => `${v.rule}:${v.column}`)).toEqual(['missing_column:amount_eur']);
    expect(notifier.notices.map((n) => [n.attributes.version, n.attributes.outcome, n.attributes.severity])).toEqual([['v1', 'published', 'warning'], ['v2', 'quarantined', 'critical']]);
  });

  it('probes both versions until the sunset, then only the successor', async () => {
    const before = await runProbe({ store: new MemoryObjectStore(), notifier: new RecordingNotifier(), contracts, layout: DEFAULT_LAYOUT, now: Date.parse('2026-12-01T05:30:00Z') });
    expect(before.partitions.map((p) => `${p.version} ${p.partition}`)).toEqual(['v1 dt=2026-11-30', 'v2 dt=2026-11-30']);
    const after = await runProbe({ store: new MemoryObjectStore(), notifier: new RecordingNotifier(), contracts, layout: DEFAULT_LAYOUT, now: Date.parse('2027-01-02T05:30:00Z') });
    expect(after.partitions.map((p) => `${p.version} ${p.partition}`)).toEqual(['v2 dt=2027-01-01']);
  });

  it('quarantines a v1 drop once v1 is past its sunset', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good', 'staging/orders/v1/dt=2026-12-31/');
    const result = await processMarker({ store, notifier: new RecordingNotifier(), contracts, clock: () => Date.parse('2027-01-01T05:00:00Z') }, 'staging/orders/v1/dt=2026-12-31/_READY');
    expect(result.status === 'quarantined' && result.decision.report.violations[0]?.rule).toBe('retired');
  });
});
