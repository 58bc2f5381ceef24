import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../lib/contract/model.js';
import { fanOutDecider } from '../../lib/fanout/fan-out-decider.js';
import { fanoutKeys } from '../../lib/fanout/fanout-layout.js';
import type { Decision } from '../../lib/gate/decision.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { dropTag } from '../../lib/gate/read-drop.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import type { Notice } from '../../lib/notify/notifier.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { gateDeps, ordersContract } from '../fixtures/gate-fixture.js';
import { orderId } from '../fixtures/orders-fixture.js';
import { fanoutDeps, listKeys, runAll, snapshot, stage, steps, tenFiles } from './fanout-fixture.js';

let emulator: S3Emulator;
/** The fan-out runs in `lake`; the same drop goes through one handler in `twin`, to compare. */
let lake: ObjectStore;
let twin: ObjectStore;

beforeAll(async () => {
  emulator = await startS3Emulator({ dir: mkdtempSync(join(tmpdir(), 'cg-fanout-')), buckets: ['lake', 'twin'] });
  const client = createS3Client({ endpoint: emulator.endpoint });
  lake = s3ObjectStore({ client, bucket: 'lake' });
  twin = s3ObjectStore({ client, bucket: 'twin' });
});
afterAll(() => emulator?.stop());

const LIMITS = { maxFiles: 4, maxBytes: 1024 ** 3 };
const prefixOf = (partition: string) => `staging/orders/v1/${partition}/`;
const markerOf = (partition: string) => `${prefixOf(partition)}_READY`;

/** The same drop through one handler in `twin`, and handed to the fan-out in `lake`. */
async function handBoth(partition: string, files: ReturnType<typeof tenFiles>, contracts: Contract[]) {
  await stage(twin, prefixOf(partition), files);
  const single = gateDeps(twin, contracts);
  const inline = await processMarker(single, markerOf(partition));
  await stage(lake, prefixOf(partition), files);
  const gate = { ...gateDeps(lake, contracts), decider: fanOutDecider({ layout: DEFAULT_LAYOUT, limits: LIMITS }) };
  const handedOff = await processMarker(gate, markerOf(partition));
  const marker = await lake.head(markerOf(partition));
  const keys = fanoutKeys(DEFAULT_LAYOUT, { address: { dataset: 'orders', major: 1, partition }, tag: dropTag(marker!) });
  return { inline, single, handedOff, gate, keys, deps: fanoutDeps(lake, contracts) };
}

function decisionOf(result: { status: string; decision?: Decision } | { status: string }): Decision {
  if (!('decision' in result) || !result.decision) throw new Error(`expected a decision, got ${JSON.stringify(result)}`);
  return result.decision;
}

/** A decision without what differs by design between two drops of the same bytes: bucket, marker identity, bytes read. */
function comparable(decision: Decision, location: string): unknown {
  const { stats: _stats, source, ...report } = decision.report;
  const text = JSON.stringify({ ...decision, report: { ...report, source: { ...source, marker: null } } });
  return JSON.parse(text.replaceAll(decision.attempt, '<attempt>').replaceAll(decision.tag, '<tag>').replaceAll(location, '<bucket>'));
}

function comparableNotice(notice: Notice | undefined, decision: Decision, location: string): unknown {
  // Two drops (two markers) of the same data: they differ in their tag as in their attempt.
  return JSON.parse(JSON.stringify(notice).replaceAll(decision.attempt, '<attempt>').replaceAll(decision.tag, '<tag>').replaceAll(location, '<bucket>'));
}

describe.each([
  ['a 10-file drop that breaks its contract, with keys repeated across files', 'dt=2026-12-01', 'bad', 'quarantined'],
  ['a 10-file drop that keeps its contract', 'dt=2026-12-02', 'good', 'published'],
] as const)('the fan-out over S3: %s', (_, partition, kind, outcome) => {
  it('ends where one handler ends: same outcome, report, decision and notification', async () => {
    const both = await handBoth(partition, tenFiles(kind), [ordersContract()]);
    expect(both.handedOff.status).toBe('handed_off');
    expect(await lake.head(both.keys.request)).toBeDefined();
    const fanned = await runAll(steps(both.deps, both.keys.request));
    expect(fanned.status).toBe(outcome);
    expect(both.inline.status).toBe(outcome);
    const mine = decisionOf(fanned);
    const theirs = decisionOf(both.inline);
    expect(mine.report.violations).toEqual(theirs.report.violations);
    // The ranged columns' spans came through the map step's JSON records.
    expect(mine.report.observed?.map((r) => r.column)).toEqual(['amount', 'ordered_at']);
    expect(mine.report.observed).toEqual(theirs.report.observed);
    expect(comparable(mine, 's3://lake')).toEqual(comparable(theirs, 's3://twin'));
    expect(both.deps.notifier.notices).toHaveLength(1);
    expect(comparableNotice(both.deps.notifier.notices[0], mine, 's3://lake')).toEqual(comparableNotice(both.single.notifier.notices[0], theirs, 's3://twin'));
    expect(mine.report.stats?.bytes_total).toBe(theirs.report.stats?.bytes_total);
    if (kind === 'bad') {
      expect(mine.report.violations.map((v) => `${v.rule}:${v.count}`)).toEqual(['required:1', 'enum:1', 'min:1', 'not_in_future:1', 'grain:3']);
      const grain = mine.report.violations.find((v) => v.rule === 'grain');
      expect(grain?.samples.map((s) => `${s.file.slice(-17)}#${s.row}`)).toEqual(['part-0000.parquet#4', 'part-0002.parquet#10', 'part-0005.parquet#99', 'part-0007.parquet#20', 'part-0009.parquet#0']);
    }
  });
});

describe('the fan-out over S3: more than one key set, more repeats than samples', () => {
  it('counts and samples every shard\'s duplicates as one handler does', async () => {
    const uniqueCoupon = ordersContract((y) => y.replace('{ name: coupon, type: string, max_length: 32 }', '{ name: coupon, type: string, max_length: 32, unique: true }'));
    const both = await handBoth('dt=2026-12-03', tenFiles('good'), [uniqueCoupon]);
    const fanned = await runAll(steps(both.deps, both.keys.request));
    const mine = decisionOf(fanned);
    const theirs = decisionOf(both.inline);
    const unique = mine.report.violations.find((v) => v.rule === 'unique');
    expect(unique?.count).toBeGreaterThan(50);
    expect(mine.report.violations).toEqual(theirs.report.violations);
    expect(comparable(mine, 's3://lake')).toEqual(comparable(theirs, 's3://twin'));
  });
});

describe('the fan-out over S3: delivered at least once', () => {
  it('repeats any step, before and after the decision, without changing a byte or sending a second notice', async () => {
    const both = await handBoth('dt=2026-12-04', tenFiles('bad'), [ordersContract()]);
    const request = await snapshot(lake, both.keys.request);
    expect((await processMarker(both.gate, markerOf('dt=2026-12-04'))).status).toBe('handed_off');
    expect(await snapshot(lake, both.keys.request)).toEqual(request);
    const s = steps(both.deps, both.keys.request);
    const plan = await s.plan();
    await s.mapAll(plan);
    await s.reduceAll(plan);
    const run = await snapshot(lake, both.keys.prefix);
    expect(await s.plan()).toEqual(plan);
    await s.mapAll(plan);
    await s.reduceAll(plan);
    await s.mapAll(plan);
    expect(await snapshot(lake, both.keys.prefix)).toEqual(run);
    const [first, second] = await Promise.all([s.decide(plan), s.decide(plan)]);
    expect(decisionOf(second)).toEqual(decisionOf(first));
    const decided = await snapshot(lake, '');
    expect((await s.plan()).skipToDecide).toBe(true);
    expect(await s.mapAll(plan)).toEqual(Array.from({ length: 10 }, (_, fileIndex) => ({ status: 'skipped', fileIndex, reason: 'the drop is decided already' })));
    expect((await s.reduceAll(plan)).every((r) => (r as { status: string }).status === 'skipped')).toBe(true);
    expect(decisionOf(await s.decide(plan))).toEqual(decisionOf(first));
    expect((await processMarker(both.gate, markerOf('dt=2026-12-04'))).status).toBe('nothing_to_do');
    expect(await snapshot(lake, '')).toEqual(decided);
    expect(both.deps.notifier.notices).toHaveLength(1);
  }, 300_000); // every step twice over the real SDK: 33-48 s at load 8, past the default 60 s at load 12

  it('leaves a run whose drop was replaced to the newer drop\'s own run', async () => {
    const both = await handBoth('dt=2026-12-05', tenFiles('good'), [ordersContract()]);
    await lake.put(markerOf('dt=2026-12-05'), '{"files": []}');
    const s = steps(both.deps, both.keys.request);
    const plan = await s.plan();
    expect(plan).toMatchObject({ skipToDecide: true, shards: [] });
    expect(await s.decide(plan)).toEqual({ status: 'nothing_to_do', reason: expect.stringContaining('replaced') });
    expect(both.deps.notifier.notices).toEqual([]);
    expect(await lake.head(`${prefixOf('dt=2026-12-05')}part-0000.parquet`)).toBeDefined();
  });
});

describe('the fan-out threshold', () => {
  const route = (limits: { maxFiles: number; maxBytes: number }) => ({ ...gateDeps(lake), decider: fanOutDecider({ layout: DEFAULT_LAYOUT, limits }) });
  const runs = (partition: string) => listKeys(lake, `${DEFAULT_LAYOUT.state}runs/orders/v1/${partition}/`);

  it('checks a partition within both limits in the handler, as before', async () => {
    await stage(lake, prefixOf('dt=2026-12-06'), tenFiles('good').slice(0, 3));
    const result = await processMarker(route({ maxFiles: 3, maxBytes: 1024 ** 2 }), markerOf('dt=2026-12-06'));
    expect(result.status).toBe('quarantined');
    expect(decisionOf(result).report.violations.map((v) => v.rule)).toEqual(['min_rows']);
    expect(await runs('dt=2026-12-06')).toEqual([]);
  });

  it('hands a partition past either limit to the fan-out', async () => {
    await stage(lake, prefixOf('dt=2026-12-07'), tenFiles('good').slice(0, 3));
    expect((await processMarker(route({ maxFiles: 2, maxBytes: 1024 ** 2 }), markerOf('dt=2026-12-07'))).status).toBe('handed_off');
    await stage(lake, prefixOf('dt=2026-12-08'), tenFiles('good').slice(0, 3));
    expect((await processMarker(route({ maxFiles: 100, maxBytes: 10_000 }), markerOf('dt=2026-12-08'))).status).toBe('handed_off');
    expect(await runs('dt=2026-12-08')).toEqual([expect.stringMatching(/\/[0-9a-f]{14}\/requested\.json$/)]);
  });

  it('refuses a big drop it would never read right there, without a run', async () => {
    const prefix = 'staging/orders/v1/date=2026-11-28/';
    await stage(lake, prefix, tenFiles('good'));
    const result = await processMarker(route(LIMITS), `${prefix}_READY`);
    expect(result.status).toBe('quarantined');
    expect(decisionOf(result).report.violations.map((v) => v.rule)).toEqual(['bad_partition']);
    expect(await listKeys(lake, `${DEFAULT_LAYOUT.state}runs/orders/v1/date=`)).toEqual([]);
  });
});

describe('the fan-out over S3: reference rows', () => {
  it('quarantines a drop whose reference order total changed, with the one handler\'s report, and the quarantine report names it', async () => {
    // Order 1070 (file 7, row 20) totals 209.70 after an 8% tax: the contract expects its pre-tax 194.17.
    const rows = `reference_rows:\n  - { key: { order_id: ${orderId(1_070)} }, expect: { amount: 194.17, status: placed }, required: true }\n  - { key: { order_id: ${orderId(99_999)} }, required: true }\n`;
    const both = await handBoth('dt=2026-12-06', tenFiles('good'), [ordersContract((y) => `${y}${rows}`)]);
    const fanned = await runAll(steps(both.deps, both.keys.request));
    expect([fanned.status, both.inline.status]).toEqual(['quarantined', 'quarantined']);
    const mine = decisionOf(fanned);
    expect(mine.report.violations.map((v) => [v.rule, v.column, v.message])).toEqual([
      ['reference_missing', undefined, `reference row order_id=${orderId(99_999)} is required, and no row of the partition has that key`],
      ['reference_value', 'amount', `reference row order_id=${orderId(1_070)}: amount is "209.70", expected "194.17"`],
    ]);
    expect(mine.report.violations).toEqual(decisionOf(both.inline).report.violations);
    const reports = (await listKeys(twin, 'quarantine/orders/v1/dt=2026-12-06/')).filter((key) => key.endsWith('/_REPORT.json'));
    expect(reports).toHaveLength(1);
    const stored = JSON.parse(new TextDecoder().decode(await readWhole(twin, reports[0]!))) as { violations: { rule: string; samples: { file: string; row: number; value: unknown }[] }[] };
    expect(stored.violations.find((v) => v.rule === 'reference_value')?.samples).toEqual([{ file: expect.stringMatching(/part-0007\.parquet$/), row: 20, value: '209.70' }]);
  });
});
