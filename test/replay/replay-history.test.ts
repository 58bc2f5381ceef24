import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { GateError } from '../../lib/errors.js';
import { readOnlyStore } from '../../lib/replay/read-only-store.js';
import { replayHistory } from '../../lib/replay/replay-history.js';
import { formatReplayText } from '../../lib/replay/replay-table.js';
import { replayWindow } from '../../lib/replay/replay-window.js';
import { examplePartition } from '../fixtures/example-partitions.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

const DECIDED = '2026-11-30T05:00:00Z';
const WEEK = replayWindow({ last: '7' }, Date.parse('2026-11-30T06:00:00Z'));
const contract: Contract = parseContract(readFileSync('contracts/orders.v1.yaml', 'utf8'), 'orders.v1.yaml').contract!;
let lake: MemoryObjectStore;

/** What the gate leaves for a publish: the files, then a `_SUCCESS` listing them with their ETags. */
async function publish(partition: string, kind: 'good' | 'bad' = 'good', decidedAt = DECIDED, extra: object = {}): Promise<void> {
  const prefix = `published/orders/v1/${partition}/`;
  const files = [];
  for (const file of examplePartition(kind)) {
    const { etag } = await lake.put(`${prefix}${file.name}`, file.bytes);
    files.push({ key: `${prefix}${file.name}`, size: file.bytes.length, etag });
  }
  const manifest = { format: 'contract-gate/success@1', contract: { name: 'orders', version: '1.2.0' }, partition, attempt: `20261130T050000Z-${partition.length}abcdef0`, decided_at: decidedAt, rows: 1200, files, checks: { status: 'pass', violations: 0, warnings: [], checked_at: decidedAt }, ...extra };
  await lake.put(`${prefix}_SUCCESS`, JSON.stringify(manifest));
}

/** A quarantined attempt as carry-out leaves it: data (here in a sub-folder), the marker, the report. */
async function quarantine(partition: string, attempt: string): Promise<void> {
  const folder = `quarantine/orders/v1/${partition}/${attempt}/`;
  for (const file of examplePartition('bad')) await lake.put(`${folder}sub/${file.name}`, file.bytes);
  await lake.put(`${folder}_READY`, '');
  await lake.put(`${folder}_REPORT.json`, JSON.stringify({ status: 'fail', checked_at: DECIDED, summary: 'failed: 7 violations: required amount (1), …' }));
}

/** The memory lake, with every key a replay reads noted. */
function watched(): { store: MemoryObjectStore; reads: Set<string> } {
  const reads = new Set<string>();
  const read = lake.read.bind(lake);
  lake.read = async (key, start, end, options) => {
    reads.add(key);
    return read(key, start, end, options);
  };
  return { store: lake, reads };
}

beforeEach(() => {
  lake = new MemoryObjectStore();
});

describe('replayHistory: what a proposed contract would have decided', () => {
  it('judges exactly the files _SUCCESS lists, as of the decision, and never reads a record the window leaves out', async () => {
    await publish('dt=2026-11-29');
    await publish('dt=2026-11-28', 'bad');
    await lake.put('published/orders/v1/dt=2026-11-01/_SUCCESS', 'not read: its path places it before the window');
    await lake.put('published/orders/v1/dt=2026-11-29/part-0002.parquet', 'a stray object _SUCCESS does not list');
    const { store, reads } = watched();
    const run = await replayHistory(readOnlyStore(store), contract, { window: WEEK, quarantined: false });
    expect(run.partitions.map((p) => [p.entry.partition, p.then, p.replayed, p.report?.checked_at])).toEqual([
      ['dt=2026-11-28', 'published', 'quarantined', DECIDED],
      ['dt=2026-11-29', 'published', 'published', DECIDED],
    ]);
    expect(reads.has('published/orders/v1/dt=2026-11-01/_SUCCESS')).toBe(false);
    expect(reads.has('published/orders/v1/dt=2026-11-29/part-0002.parquet')).toBe(false);
    expect(run.summary.published).toEqual({ replayed: 2, failing: 1, passing: 1, unreadable: 0 });
    expect(run.summary.lines[0]).toMatch(/^1 of 2 published partitions would have been quarantined: .*enum status: "pending" in 1/);
  });

  it('reports a file replaced since the publish, and a record that is no manifest, as not replayable', async () => {
    await publish('dt=2026-11-29');
    await lake.put('published/orders/v1/dt=2026-11-29/part-0001.parquet', examplePartition('bad')[1]!.bytes);
    await lake.put('published/orders/v1/dt=2026-11-27/_SUCCESS', '{"format": "something else"}');
    const run = await replayHistory(lake, contract, { window: WEEK, quarantined: false });
    expect(run.partitions.map((p) => [p.entry.partition, p.replayed])).toEqual([['dt=2026-11-27', 'unreadable'], ['dt=2026-11-29', 'unreadable']]);
    expect(run.partitions[1]?.problem).toContain('published/orders/v1/dt=2026-11-29/part-0001.parquet');
    expect(run.partitions[0]?.problem).toContain('is not a contract-gate/success@1 manifest');
    expect(run.summary.published).toMatchObject({ failing: 0, unreadable: 2 });
    expect(run.summary.lines[1]).toMatch(/^2 published partitions could not be replayed, e\.g\. dt=2026-11-27: /);
  });

  it("places a path the template does not fit by its decision time, and refuses it as the gate would (bad_partition)", async () => {
    await publish('dt=latest');
    await publish('dt=old', 'good', '2026-10-01T05:00:00Z');
    const run = await replayHistory(lake, contract, { window: WEEK, quarantined: false });
    expect(run.partitions.map((p) => [p.entry.partition, p.timeBasis, p.replayed, p.report?.violations[0]?.rule])).toEqual([['dt=latest', 'decided_at', 'quarantined', 'bad_partition']]);
    const text = formatReplayText(run);
    expect(text).toMatch(/^ {2}dt=latest \* +20261130T050000Z-9abcdef0 +published +QUARANTINED +0 +1 violation: bad_partition \(1\)$/m);
    expect(text).toContain("  * placed in time by the gate's decision, as its path does not fit the contract's partition template\n");
  });

  it('replays a quarantined attempt from its folder, without its report and marker, as of its check', async () => {
    await publish('dt=2026-11-29');
    await quarantine('dt=2026-11-28', '20261130T050000Z-0e98b8a5');
    const run = await replayHistory(lake, contract, { window: WEEK, quarantined: true });
    const [attempt] = run.partitions.filter((p) => p.entry.source === 'quarantined');
    expect(attempt?.entry).toMatchObject({ partition: 'dt=2026-11-28', attempt: '20261130T050000Z-0e98b8a5', decidedAt: Date.parse(DECIDED), thenSummary: 'failed: 7 violations: required amount (1), …' });
    expect(attempt?.entry.files.map((f) => f.key.split('/').slice(-2).join('/'))).toEqual(['sub/part-0000.parquet', 'sub/part-0001.parquet']);
    expect([attempt?.then, attempt?.replayed, attempt?.report?.violations.length]).toEqual(['quarantined', 'quarantined', 7]);
    expect(run.summary.quarantined).toEqual({ replayed: 1, failing: 1, passing: 0, unreadable: 0 });
    expect(run.summary.published.failing).toBe(0);
    expect(formatReplayText(run)).toMatch(/\n1 quarantined attempt: 1 would still be quarantined \(.*enum status: "pending" in 1/);
  });

  it("shows a release (published over failed checks) apart, never as a publish the change breaks", async () => {
    const release = { checks: { status: 'fail', violations: 7, warnings: [], checked_at: DECIDED }, release: { override: true, by: 'owner', reason: 'known', at: DECIDED, from_attempt: 'x' } };
    await publish('dt=2026-11-28', 'bad', DECIDED, release);
    await publish('dt=2026-11-29');
    const run = await replayHistory(lake, contract, { window: WEEK, quarantined: false });
    expect(run.partitions.map((p) => [p.entry.partition, p.then, p.replayed])).toEqual([['dt=2026-11-28', 'released', 'quarantined'], ['dt=2026-11-29', 'published', 'published']]);
    expect(run.summary.published).toMatchObject({ replayed: 1, failing: 0 });
    expect(run.summary.lines).toEqual(['the 1 published partition would still be published', '1 released partition (published over failed checks, not counted): 1 would still fail']);
    expect(formatReplayText(run)).toMatch(/^ {2}dt=2026-11-28 +\S+ +released +quarantined +1,200 +7 violations: /m);
  });

  it('refuses a dataset the bucket holds nothing of, and not one with only quarantined attempts', async () => {
    const other = { ...contract, name: 'customers' };
    await expect(replayHistory(lake, other, { window: WEEK, quarantined: false })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('holds nothing of customers v1') });
    await quarantine('dt=2026-11-28', '20261130T050000Z-0e98b8a5');
    const run = await replayHistory(lake, contract, { window: WEEK, quarantined: false });
    expect([run.partitions.length, run.summary.lines]).toEqual([0, ['no published partition in the window']]);
  });

  it('runs on a store that refuses every write', async () => {
    const store = readOnlyStore(lake);
    await expect(store.put('published/x', 'y')).rejects.toBeInstanceOf(GateError);
    await expect(store.copy('a', 'b')).rejects.toThrow('replay is read-only');
    await expect(store.delete('published/orders/v1/dt=2026-11-29/_SUCCESS')).rejects.toThrow('replay is read-only');
  });
});
