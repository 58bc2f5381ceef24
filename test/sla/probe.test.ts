import { describe, expect, it } from 'vitest';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { runProbe } from '../../lib/sla/probe.js';
import { dropExample, ordersContract, RecordingNotifier, registeredAt } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

// orders.v1: arrival_by 06:00 Europe/Berlin, lag 1 day, max_lag_hours 26 on updated_at.
const DEC_1_DEADLINE = Date.parse('2026-12-01T05:00:00Z'); // 06:00 CET: dt=2026-11-30 is due
const at = (iso: string) => Date.parse(iso);

/** The contract as the registry has held it since January: the probe expects every partition the tests look at. */
function probeDeps(store: MemoryObjectStore, now: number, contract = ordersContract(), notifier = new RecordingNotifier()) {
  return { store, notifier, contracts: contractRegistry([registeredAt(contract)]), layout: DEFAULT_LAYOUT, now, lookbackHours: 12 };
}

async function publish(store: MemoryObjectStore, partition: string, when: number, contract = ordersContract()) {
  const prefix = `staging/orders/v1/${partition}/`;
  await dropExample(store, 'good', prefix);
  const notifier = new RecordingNotifier();
  // The examples hold data of 2026-11-29; the gate checks them as of the morning after.
  const result = await processMarker({ store, notifier, contracts: contractRegistry([contract]), clock: () => when }, `${prefix}_READY`);
  expect(result.status).toBe('published');
}

describe('runProbe: the clock SLA', () => {
  it('expects nothing for a partition before its deadline', async () => {
    const report = await runProbe(probeDeps(new MemoryObjectStore(), DEC_1_DEADLINE - 60_000));
    expect(report.partitions.map((p) => p.partition)).not.toContain('dt=2026-11-30');
  });

  it('pages the owner once for a partition that never arrived, however often it runs', async () => {
    const store = new MemoryObjectStore();
    const notifier = new RecordingNotifier();
    const first = await runProbe(probeDeps(store, DEC_1_DEADLINE + 60_000, undefined, notifier));
    expect(first.partitions).toEqual([{
      contract: 'orders', version: 'v1', partition: 'dt=2026-11-30', deadline: '2026-12-01T05:00:00Z', status: 'missed',
      detail: 'never arrived: nothing was dropped under staging/orders/v1/dt=2026-11-30/', sent: ['sla_missed'],
    }]);
    for (let minute = 2; minute < 6; minute++) await runProbe(probeDeps(store, DEC_1_DEADLINE + minute * 60_000, undefined, notifier));
    expect(notifier.notices).toHaveLength(1);
    expect(notifier.notices[0]?.attributes).toEqual({ contract: 'orders', version: 'v1', owner: 'orders-platform', outcome: 'sla_missed', severity: 'critical', partition: 'dt=2026-11-30' });
    expect(notifier.notices[0]?.subject).toBe('[contract-gate] orders v1 dt=2026-11-30 MISSED its SLA');
    expect(notifier.notices[0]?.body).toContain('Due by:    2026-12-01T05:00:00Z (06:00 Europe/Berlin)');
  });

  it('says when the batch sits in staging without a marker', async () => {
    const store = new MemoryObjectStore();
    await store.put('staging/orders/v1/dt=2026-11-30/part-0000.parquet', 'half an upload');
    const report = await runProbe(probeDeps(store, DEC_1_DEADLINE + 60_000));
    expect(report.partitions[0]?.detail).toBe('1 file sits in staging/orders/v1/dt=2026-11-30/ without a _READY marker: the producer\'s upload never completed');
  });

  it('quotes the quarantine report when the batch was quarantined', async () => {
    const store = new MemoryObjectStore();
    const prefix = 'staging/orders/v1/dt=2026-11-30/';
    await dropExample(store, 'bad', prefix);
    await processMarker({ store, notifier: new RecordingNotifier(), contracts: contractRegistry([ordersContract()]), clock: () => at('2026-11-30T05:00:00Z') }, `${prefix}_READY`);
    const report = await runProbe(probeDeps(store, DEC_1_DEADLINE + 60_000));
    expect(report.partitions[0]?.detail).toMatch(/^quarantined \(attempt 20261130T050000Z-[0-9a-f]{8}\): failed: 7 violations: required amount \(1\)/);
  });

  it('waits out the grace period before paging', async () => {
    const store = new MemoryObjectStore();
    const graceful = ordersContract((y) => y.replace('arrival_by: "06:00"', 'arrival_by: "06:00"\n  grace_minutes: 30'));
    const inGrace = await runProbe(probeDeps(store, DEC_1_DEADLINE + 29 * 60_000, graceful));
    expect(inGrace.partitions[0]).toMatchObject({ status: 'waiting', sent: [] });
    const after = await runProbe(probeDeps(store, DEC_1_DEADLINE + 31 * 60_000, graceful));
    expect(after.partitions[0]).toMatchObject({ status: 'missed', sent: ['sla_missed'] });
  });

  it('sends one recovery notice when a missed partition is published late', async () => {
    const store = new MemoryObjectStore();
    const notifier = new RecordingNotifier();
    // Lenient on freshness so the late example data still passes the gate.
    const lenient = ordersContract((y) => y.replace('max_lag_hours: 26', 'max_lag_hours: 48'));
    await runProbe(probeDeps(store, DEC_1_DEADLINE + 60_000, lenient, notifier));
    await publish(store, 'dt=2026-11-30', DEC_1_DEADLINE + 30 * 60_000, lenient);
    const report = await runProbe(probeDeps(store, DEC_1_DEADLINE + 3_600_000, lenient, notifier));
    await runProbe(probeDeps(store, DEC_1_DEADLINE + 2 * 3_600_000, lenient, notifier));
    expect(report.partitions[0]).toMatchObject({ status: 'published', sent: ['sla_recovered'] });
    expect(notifier.notices.map((n) => n.attributes.outcome)).toEqual(['sla_missed', 'sla_recovered']);
  });

  it('reports once a published partition whose data was already stale when it was due', async () => {
    const store = new MemoryObjectStore();
    const notifier = new RecordingNotifier();
    // The example data is of 2026-11-29; published as dt=2026-11-30 it is ~29 hours old at the deadline.
    const relaxed = ordersContract((y) => y.replace('max_lag_hours: 26', 'max_lag_hours: 40'));
    await publish(store, 'dt=2026-11-30', at('2026-11-30T05:00:00Z'));
    const strict = await runProbe(probeDeps(store, DEC_1_DEADLINE + 60_000, undefined, notifier));
    expect(strict.partitions[0]).toMatchObject({ status: 'published', sent: ['stale'] });
    await runProbe(probeDeps(store, DEC_1_DEADLINE + 120_000, undefined, notifier));
    expect(notifier.notices.map((n) => n.attributes.outcome)).toEqual(['stale']);
    const fresh = new MemoryObjectStore();
    await publish(fresh, 'dt=2026-11-30', at('2026-11-30T05:00:00Z'), relaxed);
    expect((await runProbe(probeDeps(fresh, DEC_1_DEADLINE + 60_000, relaxed))).partitions[0]).toMatchObject({ status: 'published', sent: [] });
  });

  it('expects nothing of a retired version, or of a deprecated one past its sunset', async () => {
    const retired = ordersContract((y) => y.replace('status: active', 'status: retired'));
    const sunset = ordersContract((y) => y.replace('status: active', 'status: deprecated\nsunset: 2026-11-15'));
    expect((await runProbe(probeDeps(new MemoryObjectStore(), DEC_1_DEADLINE + 60_000, retired))).partitions).toEqual([]);
    expect((await runProbe(probeDeps(new MemoryObjectStore(), DEC_1_DEADLINE + 60_000, sunset))).partitions).toEqual([]);
  });

  it('skips holidays named in skip_dates', async () => {
    const holiday = ordersContract((y) => y.replace('arrival_by: "06:00"', 'arrival_by: "06:00"\n  skip_dates: ["2026-11-30"]'));
    expect((await runProbe(probeDeps(new MemoryObjectStore(), DEC_1_DEADLINE + 60_000, holiday))).partitions).toEqual([]);
  });

  it('follows the local deadline across a daylight-saving change', async () => {
    // On 2026-07-01 06:00 in Berlin is 04:00Z: the partition is already late at 04:30Z.
    const report = await runProbe(probeDeps(new MemoryObjectStore(), at('2026-07-01T04:30:00Z')));
    expect(report.partitions).toEqual([expect.objectContaining({ partition: 'dt=2026-06-30', deadline: '2026-07-01T04:00:00Z', status: 'missed' })]);
  });

  it('checks hourly partitions of an hourly contract', async () => {
    const hourly = ordersContract((y) => y.replace('partition: "dt={ds}"', 'partition: "dt={ds}/hr={hh}"').replace('arrival_by: "06:00"', 'schedule: hourly\n  arrival_by: "00:20"').replace('timezone: Europe/Berlin', 'timezone: UTC'));
    const report = await runProbe({ ...probeDeps(new MemoryObjectStore(), at('2026-12-01T10:25:00Z'), hourly), lookbackHours: 2 });
    expect(report.partitions.map((p) => [p.partition, p.deadline, p.status])).toEqual([
      ['dt=2026-12-01/hr=08', '2026-12-01T09:20:00Z', 'missed'],
      ['dt=2026-12-01/hr=09', '2026-12-01T10:20:00Z', 'missed'],
    ]);
  });
});

describe('runProbe: deprecation reminders', () => {
  const deprecated = ordersContract((y) => y.replace('status: active', 'status: deprecated\nsunset: 2026-12-31').replace('compat: { mode: backward }', 'consumers:\n  - { team: finance-bi, notify: [bi@example.com], columns: [amount] }\ncompat: { mode: backward }'));
  const SUNSET = Date.parse('2026-12-31T00:00:00Z');

  it('reminds owner and consumers 7 days and 1 day before the sunset, once each', async () => {
    const store = new MemoryObjectStore();
    const notifier = new RecordingNotifier();
    const run = (now: number) => runProbe({ ...probeDeps(store, now, deprecated, notifier), lookbackHours: 0 });
    expect((await run(SUNSET - 8 * 86_400_000)).reminders).toEqual([]);
    expect((await run(SUNSET - 7 * 86_400_000)).reminders).toEqual([{ contract: 'orders', version: 'v1', sunset: '2026-12-31', days_before: 7 }]);
    expect((await run(SUNSET - 3 * 86_400_000)).reminders).toEqual([]);
    expect((await run(SUNSET - 86_400_000 + 60_000)).reminders).toEqual([{ contract: 'orders', version: 'v1', sunset: '2026-12-31', days_before: 1 }]);
    expect((await run(SUNSET - 60_000)).reminders).toEqual([]);
    const reminders = notifier.notices.filter((n) => n.attributes.outcome === 'sunset_reminder');
    expect(reminders.map((n) => n.subject)).toEqual([
      '[contract-gate] orders v1 retires in 7 days (2026-12-31)',
      '[contract-gate] orders v1 retires tomorrow (2026-12-31)',
    ]);
    expect(reminders[0]?.body).toContain('Consumers: finance-bi');
    expect(reminders[0]?.attributes).toMatchObject({ contract: 'orders', severity: 'warning' });
  });
});
