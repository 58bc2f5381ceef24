import { mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { GateError } from '../../lib/errors.js';
import { DEFAULT_LAYOUT, type GateLayout } from '../../lib/gate/gate-layout.js';
import { prefixedLake } from '../../lib/lake/lake-address.js';
import { MAX_NOTICES, MAX_PARTITIONS, type LakeStatus, type PartitionCell } from '../../lib/status/lake-status.js';
import { readLakeStatus } from '../../lib/status/read-lake-status.js';
import { localObjectStore } from '../../lib/storage/local-object-store.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';

// A small lake written by hand into a local store: every state and every precedence between
// them, where the gate itself would need many drops to get there.

const NOW = Date.parse('2026-12-01T05:10:00Z'); // dt=2026-11-30 is due at 05:00, pages at 05:30
const T0 = Date.parse('2026-11-30T00:00:00Z');

function contract(text: string): Contract {
  const loaded = parseContract(text, 'test.yaml');
  if (!loaded.contract) throw new Error(loaded.problems.map((p) => p.message).join('\n'));
  return loaded.contract;
}

const orders = (version: string, minRows: number) => contract(`name: orders
version: ${version}
owner: { team: orders-team, notify: [orders@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  columns:
    - { name: id, type: int64, required: true }
sla:
  arrival_by: "05:00"
  timezone: UTC
  grace_minutes: 30
  min_rows: ${minRows}
  max_rows: 5000
`);
const legacy = contract(`name: legacy
version: 1.0.0
status: retired
owner: { team: old-team, notify: [old@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  columns:
    - { name: id, type: int64 }
sla:
  arrival_by: "05:00"
  timezone: UTC
`);
const CONTRACTS = [orders('1.1.0', 5), orders('1.2.0', 10), legacy];

const attempt = (day: number, n: number) => `202611${String(day).padStart(2, '0')}T05${String(n).padStart(2, '0')}00Z-0e98b8a${n}`;

function success(partition: string, attemptId: string, extra: Record<string, unknown> = {}, checks: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: 'contract-gate/success@1', partition, attempt: attemptId, decided_at: '2026-11-20T05:10:00Z', rows: 100, files: [],
    checks: { status: 'pass', violations: 0, warnings: [], checked_at: '2026-11-20T05:10:00Z', ...checks }, ...extra,
  });
}

const report = (rows: number, summary: string) => JSON.stringify({ status: 'fail', rows, summary, checked_at: '2026-11-22T05:10:00Z' });
const claim = (subject: string, state?: string) => JSON.stringify({ token: 'abc', subject, ...(state ? { state } : {}) });

interface Lake {
  readonly store: ObjectStore;
  readonly reads: string[];
  readonly lists: string[];
  put(key: string, body: string, modified?: number): Promise<void>;
}

/** A local store that records the keys whose bodies are read. */
function lake(): Lake {
  const root = mkdtempSync(join(tmpdir(), 'cg-status-'));
  const inner = localObjectStore({ root });
  const reads: string[] = [];
  const lists: string[] = [];
  const store: ObjectStore = {
    ...inner,
    location: inner.location,
    read: (key, start, end, options) => (reads.push(key), inner.read(key, start, end, options)),
    list: (prefix) => (lists.push(prefix), inner.list(prefix)),
  };
  return {
    store,
    reads,
    lists,
    async put(key, body, modified) {
      await inner.put(key, body);
      if (modified !== undefined) utimesSync(join(root, ...key.split('/')), modified / 1000, modified / 1000);
    },
  };
}

async function precedenceLake(layout: GateLayout): Promise<Lake> {
  const l = lake();
  const { published: pub, quarantine: q, staging: st, state } = layout;
  // dt=2026-11-20: published, then a later drop quarantined, restaged and paged missed: published wins.
  await l.put(`${pub}orders/v1/dt=2026-11-20/_SUCCESS`, success('dt=2026-11-20', attempt(20, 1)));
  await l.put(`${q}orders/v1/dt=2026-11-20/${attempt(20, 2)}/_REPORT.json`, report(7, 'failed: 1 violation: required id (7)'));
  await l.put(`${st}orders/v1/dt=2026-11-20/part-0.parquet`, 'x');
  await l.put(`${state}sla/orders/v1/dt=2026-11-20/sla_missed.json`, claim('missed'), T0);
  // dt=2026-11-21: in staging (with its marker) beats a quarantined attempt.
  await l.put(`${q}orders/v1/dt=2026-11-21/${attempt(21, 1)}/_REPORT.json`, report(3, 'failed: 1 violation'));
  await l.put(`${st}orders/v1/dt=2026-11-21/part-0.parquet`, 'x');
  await l.put(`${st}orders/v1/dt=2026-11-21/part-1.parquet`, 'x');
  await l.put(`${st}orders/v1/dt=2026-11-21/_READY`, '{}');
  // dt=2026-11-22: quarantined twice, the latest with a report page, and paged missed: quarantined beats missed.
  await l.put(`${q}orders/v1/dt=2026-11-22/${attempt(22, 1)}/_REPORT.json`, report(10, 'failed: first'));
  await l.put(`${q}orders/v1/dt=2026-11-22/${attempt(22, 1)}/part-0.parquet`, 'x');
  await l.put(`${q}orders/v1/dt=2026-11-22/${attempt(22, 2)}/_REPORT.html`, '<html></html>');
  await l.put(`${q}orders/v1/dt=2026-11-22/${attempt(22, 2)}/_REPORT.json`, report(12, 'failed: second'));
  await l.put(`${state}sla/orders/v1/dt=2026-11-22/sla_missed.json`, claim('missed'), T0 + 1000);
  // dt=2026-11-23: only the probe's claim: missed, late.
  await l.put(`${state}sla/orders/v1/dt=2026-11-23/sla_missed.json`, claim('missed'), T0 + 2000);
  // dt=2026-11-24: rows withheld under a tolerance, whose attempt folder is no quarantine.
  await l.put(`${pub}orders/v1/dt=2026-11-24/_SUCCESS`, success('dt=2026-11-24', attempt(24, 1), { rows: 990, withheld: { rows: 10, tolerance: '5%' } }, { status: 'warn' }));
  await l.put(`${q}orders/v1/dt=2026-11-24/${attempt(24, 1)}/_REPORT.json`, report(1000, 'passed with 10 invalid rows withheld'));
  await l.put(`${q}orders/v1/dt=2026-11-24/${attempt(24, 1)}/rejected-rows.parquet`, 'x');
  // dt=2026-11-25: a warn rule failed.
  await l.put(`${pub}orders/v1/dt=2026-11-25/_SUCCESS`, success('dt=2026-11-25', attempt(25, 1), {}, { status: 'warn', warned: [{ rule: 'enum', column: 'channel', count: 2, message: 'm' }] }));
  // dt=2026-11-19: released by its owner over failed checks.
  await l.put(`${pub}orders/v1/dt=2026-11-19/_SUCCESS`, success('dt=2026-11-19', attempt(19, 2), { release: { override: true, by: 'alice', reason: 'known', from_attempt: attempt(19, 1) } }, { status: 'fail', violations: 3 }));
  await l.put(`${q}orders/v1/dt=2026-11-19/${attempt(19, 1)}/_REPORT.json`, report(100, 'failed: 3 violations'));
  // Long before the last MAX_PARTITIONS: never read.
  await l.put(`${pub}orders/v1/dt=2026-09-01/_SUCCESS`, success('dt=2026-09-01', attempt(1, 1)));
  // A retired contract's dataset with one staged file and a partition the template does not fit.
  await l.put(`${st}legacy/v1/dt=2026-11-30/part-0.csv`, 'x');
  await l.put(`${pub}legacy/v1/odd/_SUCCESS`, success('odd', attempt(1, 2)));
  return l;
}

const cellOf = (status: LakeStatus, dataset: string, partition: string): PartitionCell | undefined =>
  status.datasets.find((d) => d.dataset === dataset)?.cells.find((c) => c.partition === partition);

describe('reading a lake status from a hand-written lake', () => {
  let l: Lake;
  let status: LakeStatus;
  beforeAll(async () => {
    l = await precedenceLake(DEFAULT_LAYOUT);
    status = await readLakeStatus(l.store, { now: NOW, contracts: CONTRACTS });
  });

  it('names each dataset major with its newest contract, sorted by name', () => {
    expect(status.datasets.map((d) => [d.dataset, d.major, d.contract])).toEqual([
      ['legacy', 1, { version: '1.0.0', owner: 'old-team' }],
      ['orders', 1, { version: '1.2.0', owner: 'orders-team', minRows: 10, maxRows: 5000 }],
    ]);
    expect(status.generated_at).toBe('2026-12-01T05:10:00Z');
    expect(status.location).toBe(l.store.location);
  });

  it('shows published over a later quarantined attempt, a restaged drop and a page, and says it was late', () => {
    expect(cellOf(status, 'orders', 'dt=2026-11-20')).toEqual({
      partition: 'dt=2026-11-20', state: 'published', rows: 100, at: '2026-11-20T05:10:00Z', late: true, attempts: 1,
      detail: `published 100 rows; a later drop was quarantined (attempt ${attempt(20, 2)})`,
      link: { kind: 'object', key: 'published/orders/v1/dt=2026-11-20/_SUCCESS' },
    });
  });

  it('shows a drop in staging over a quarantined attempt, in the probe\'s words', () => {
    expect(cellOf(status, 'orders', 'dt=2026-11-21')).toMatchObject({
      state: 'in_staging', attempts: 1, link: { kind: 'listing', key: 'staging/orders/v1/dt=2026-11-21/' },
      detail: expect.stringMatching(/^a _READY marker sits in staging\/orders\/v1\/dt=2026-11-21\/: the gate has not finished/),
    });
    expect(cellOf(status, 'legacy', 'dt=2026-11-30')).toMatchObject({ state: 'in_staging', detail: expect.stringMatching(/^1 file sits in staging\/legacy\/v1\/dt=2026-11-30\/ without a _READY marker/) });
  });

  it('shows the latest of two quarantined attempts over a missed SLA, linked to its report page', () => {
    expect(cellOf(status, 'orders', 'dt=2026-11-22')).toEqual({
      partition: 'dt=2026-11-22', state: 'quarantined', rows: 12, at: '2026-11-22T05:10:00Z', detail: 'failed: second', late: true, attempts: 2,
      link: { kind: 'object', key: `quarantine/orders/v1/dt=2026-11-22/${attempt(22, 2)}/_REPORT.html` },
    });
    expect(cellOf(status, 'orders', 'dt=2026-11-21')?.attempts).toBe(1);
  });

  it('calls a partition with only the probe\'s page missed, and the calendar\'s empty partitions missed or waiting by the grace', () => {
    expect(cellOf(status, 'orders', 'dt=2026-11-23')).toMatchObject({ state: 'missed_sla', late: true, at: '2026-11-24T05:00:00Z', link: { kind: 'listing', key: 'staging/orders/v1/dt=2026-11-23/' } });
    expect(cellOf(status, 'orders', 'dt=2026-11-29')).toEqual({
      partition: 'dt=2026-11-29', state: 'missed_sla', at: '2026-11-30T05:00:00Z', link: { kind: 'listing', key: 'staging/orders/v1/dt=2026-11-29/' },
      detail: 'due by 2026-11-30T05:00:00Z; never arrived: nothing was dropped under staging/orders/v1/dt=2026-11-29/',
    });
    // Due at 05:00, paged at 05:30: at 05:10 it is still waiting, as is tomorrow's.
    expect(cellOf(status, 'orders', 'dt=2026-11-30')).toMatchObject({ state: 'waiting', at: '2026-12-01T05:00:00Z' });
    expect(cellOf(status, 'orders', 'dt=2026-12-01')).toMatchObject({ state: 'waiting', at: '2026-12-02T05:00:00Z' });
    expect(cellOf(status, 'orders', 'dt=2026-12-02')).toBeUndefined();
  });

  it('shows withheld rows and warn rules as published with warnings, the withheld rows\' folder not an attempt', () => {
    expect(cellOf(status, 'orders', 'dt=2026-11-24')).toEqual({
      partition: 'dt=2026-11-24', state: 'published_with_warnings', rows: 990, at: '2026-11-20T05:10:00Z', detail: '990 rows published, 10 withheld',
      link: { kind: 'object', key: 'published/orders/v1/dt=2026-11-24/_SUCCESS' },
    });
    expect(cellOf(status, 'orders', 'dt=2026-11-25')).toMatchObject({ state: 'published_with_warnings', rows: 100, detail: 'published with 1 warning: enum channel (2)' });
  });

  it('shows a release over failed checks as published with warnings, its quarantined attempt counted', () => {
    expect(cellOf(status, 'orders', 'dt=2026-11-19')).toMatchObject({ state: 'published_with_warnings', rows: 100, attempts: 1, detail: '100 rows released over 3 failed checks by alice' });
  });

  it('lists each of the seven roots once', () => {
    expect([...l.lists].sort()).toEqual(['_gate/abandoned/', '_gate/notices/', '_gate/sla/', '_gate/sunset/', 'published/', 'quarantine/', 'staging/']);
  });

  it('keeps the last MAX_PARTITIONS partitions oldest first, and reads only their bodies', () => {
    const cells = status.datasets.find((d) => d.dataset === 'orders')!.cells;
    expect(cells).toHaveLength(MAX_PARTITIONS);
    expect(cells[0]!.partition).toBe('dt=2026-11-02');
    expect(cells.at(-1)!.partition).toBe('dt=2026-12-01');
    expect(cells.map((c) => c.partition)).toEqual([...cells.map((c) => c.partition)].sort());
    expect(l.reads).not.toContain('published/orders/v1/dt=2026-09-01/_SUCCESS');
    // Only the latest attempt of the one quarantined cell: not the first, not a restaged drop's, not the withheld rows' folder.
    expect(l.reads.filter((k) => k.includes('_REPORT'))).toEqual([`quarantine/orders/v1/dt=2026-11-22/${attempt(22, 2)}/_REPORT.json`]);
  });

  it('orders a partition no template fits before those that fit, and expects nothing of a retired contract', () => {
    const cells = status.datasets.find((d) => d.dataset === 'legacy')!.cells;
    expect(cells.map((c) => [c.partition, c.state])).toEqual([['odd', 'published'], ['dt=2026-11-30', 'in_staging']]);
  });
});

describe('notices in a lake status', () => {
  it('lists every kind of claim newest first with its subject and state, the corrupt one as a problem', async () => {
    const l = lake();
    const at = (minutes: number) => T0 + minutes * 60_000;
    await l.put('_gate/notices/orders/v1/dt=2026-11-30/hr=06/tag-1.json', claim('verdict', 'sent'), at(1));
    await l.put('_gate/sla/orders/v1/dt=2026-11-29/sla_missed.json', claim('missed'), at(2));
    await l.put('_gate/sla/orders/v1/dt=2026-11-29/sla_recovered.json', claim('recovered', 'sent'), at(3));
    await l.put('_gate/sla/orders/v1/dt=2026-11-29/stale.json', claim('stale'), at(4));
    await l.put('_gate/abandoned/orders/v1/dt=2026-11-28/1796000000000.json', claim('abandoned', 'sending'), at(5));
    await l.put('_gate/sunset/legacy/v1/7d.json', claim('retires in 7 days'), at(6));
    await l.put('_gate/notices/orders/v1/dt=2026-11-27/tag-2.json', 'not json', at(7));
    await l.put('_gate/sla/orders/v1/dt=2026-11-27/sla_whatever.json', claim('?'), at(8));
    const status = await readLakeStatus(l.store, { now: NOW, contracts: [] });
    expect(status.notices.map((n) => [n.kind, n.dataset, n.version, n.partition, n.subject, n.state])).toEqual([
      ['sunset_reminder', 'legacy', 'v1', undefined, 'retires in 7 days', 'sent'],
      ['abandoned', 'orders', 'v1', 'dt=2026-11-28', 'abandoned', 'sending'],
      ['stale', 'orders', 'v1', 'dt=2026-11-29', 'stale', 'sent'],
      ['sla_recovered', 'orders', 'v1', 'dt=2026-11-29', 'recovered', 'sent'],
      ['sla_missed', 'orders', 'v1', 'dt=2026-11-29', 'missed', 'sent'],
      ['verdict', 'orders', 'v1', 'dt=2026-11-30/hr=06', 'verdict', 'sent'],
    ]);
    expect(status.notices[0]).toMatchObject({ at: '2026-11-30T00:06:00Z', key: '_gate/sunset/legacy/v1/7d.json' });
    expect(status.problems).toEqual([
      `${l.store.location}/_gate/notices/orders/v1/dt=2026-11-27/tag-2.json is not JSON`,
      '_gate/sla/orders/v1/dt=2026-11-27/sla_whatever.json is not a key the gate writes (expected _gate/sla/<dataset>/v<major>/<partition>/<sla_missed|sla_recovered|stale>.json)',
    ]);
    // The probe's page alone is a missed cell of a dataset no contract names.
    expect(status.datasets).toEqual([{ dataset: 'orders', major: 1, cells: [{
      partition: 'dt=2026-11-29', state: 'missed_sla', late: true, link: { kind: 'listing', key: 'staging/orders/v1/dt=2026-11-29/' },
      detail: 'paged as missed at 2026-11-30T00:02:00Z; never arrived: nothing was dropped under staging/orders/v1/dt=2026-11-29/',
    }] }]);
  });

  it('keeps the newest MAX_NOTICES and reads no other claim', async () => {
    const l = lake();
    for (let i = 0; i < MAX_NOTICES + 5; i++) await l.put(`_gate/notices/orders/v1/dt=2026-11-${String(i % 28 + 1).padStart(2, '0')}/t${i}.json`, claim(`n${i}`), T0 + i * 1000);
    const status = await readLakeStatus(l.store, { now: NOW, contracts: [] });
    expect(status.notices.map((n) => n.subject)).toEqual(Array.from({ length: MAX_NOTICES }, (_, i) => `n${MAX_NOTICES + 4 - i}`));
    expect(l.reads).toHaveLength(MAX_NOTICES);
    expect(l.reads).not.toContain('_gate/notices/orders/v1/dt=2026-11-01/t0.json');
  });
});

describe('problems and layouts', () => {
  it('reports a corrupt _SUCCESS, a manifest not the gate\'s and an unreadable report by key, and shows what it can', async () => {
    const l = lake();
    await l.put('published/orders/v1/dt=2026-11-28/_SUCCESS', '{"rows": ');
    await l.put('published/orders/v1/dt=2026-11-29/_SUCCESS', '{"rows": 5}');
    await l.put(`quarantine/orders/v1/dt=2026-11-30/${attempt(30, 1)}/_REPORT.json`, '[]');
    await l.put('quarantine/orders/v1/loose-file.txt', 'x');
    await l.put('quarantine/orders/v1/dt=2026-11-30/also-loose.txt', 'x');
    const status = await readLakeStatus(l.store, { now: NOW, contracts: [orders('1.2.0', 10)] });
    const where = l.store.location;
    expect(status.problems).toEqual([
      `${where}/published/orders/v1/dt=2026-11-28/_SUCCESS is not JSON`,
      `${where}/published/orders/v1/dt=2026-11-29/_SUCCESS is not a contract-gate/success@1 manifest`,
      `${where}/quarantine/orders/v1/dt=2026-11-30/${attempt(30, 1)}/_REPORT.json is not a gate report (it has no summary)`,
      '2 keys are not keys the gate writes, e.g. quarantine/orders/v1/dt=2026-11-30/also-loose.txt (expected quarantine/<dataset>/v<major>/<partition>/<attempt>/...)',
    ]);
    expect(cellOf(status, 'orders', 'dt=2026-11-28')).toMatchObject({ state: 'published_with_warnings', link: { kind: 'object', key: 'published/orders/v1/dt=2026-11-28/_SUCCESS' } });
    expect(cellOf(status, 'orders', 'dt=2026-11-28')?.rows).toBeUndefined();
    expect(cellOf(status, 'orders', 'dt=2026-11-30')).toMatchObject({ state: 'quarantined', attempts: 1, link: { key: `quarantine/orders/v1/dt=2026-11-30/${attempt(30, 1)}/_REPORT.json` } });
  });

  it('reads a lake under a prefix through its layout, and nothing outside it', async () => {
    const { layout } = prefixedLake('tenant-a/');
    const l = await precedenceLake(layout);
    await l.put('published/orders/v1/dt=2026-11-26/_SUCCESS', success('dt=2026-11-26', attempt(26, 1))); // another lake's
    const status = await readLakeStatus(l.store, { now: NOW, contracts: CONTRACTS, layout });
    expect(cellOf(status, 'orders', 'dt=2026-11-20')).toMatchObject({ state: 'published', late: true, link: { key: 'tenant-a/published/orders/v1/dt=2026-11-20/_SUCCESS' } });
    expect(cellOf(status, 'orders', 'dt=2026-11-22')).toMatchObject({ state: 'quarantined', link: { key: `tenant-a/quarantine/orders/v1/dt=2026-11-22/${attempt(22, 2)}/_REPORT.html` } });
    expect(cellOf(status, 'orders', 'dt=2026-11-21')).toMatchObject({ state: 'in_staging', link: { kind: 'listing', key: 'tenant-a/staging/orders/v1/dt=2026-11-21/' } });
    expect(cellOf(status, 'orders', 'dt=2026-11-26')).toMatchObject({ state: 'missed_sla' });
    expect(status.notices.map((n) => n.key)).toEqual(['tenant-a/_gate/sla/orders/v1/dt=2026-11-23/sla_missed.json', 'tenant-a/_gate/sla/orders/v1/dt=2026-11-22/sla_missed.json', 'tenant-a/_gate/sla/orders/v1/dt=2026-11-20/sla_missed.json']);
    expect(status.problems).toEqual([]);
  });

  it('throws only when the store cannot be listed', async () => {
    const l = lake();
    const broken: ObjectStore = {
      ...l.store,
      location: l.store.location,
      list: async function* () {
        throw new GateError('storage_failed', 'list: access denied');
      },
    };
    await expect(readLakeStatus(broken, { now: NOW, contracts: CONTRACTS })).rejects.toThrow('access denied');
  });
});

describe('a dataset with more partitions than a page shows', () => {
  it('keeps the newest MAX_PARTITIONS by partition time while listing, whatever root names them', async () => {
    const l = lake();
    const hourly = contract(`name: clicks
version: 1.0.0
owner: { team: web-team, notify: [web@example.com] }
produces: { format: parquet, partition: "dt={ds}/hr={hh}" }
schema:
  columns:
    - { name: id, type: int64 }
`);
    const hour = (i: number) => `dt=2026-11-${String(20 + Math.floor(i / 24)).padStart(2, '0')}/hr=${String(i % 24).padStart(2, '0')}`;
    for (let i = 0; i < 100; i++) await l.put(`published/clicks/v1/${hour(i)}/_SUCCESS`, success(hour(i), attempt(20, 1)));
    // Listed after every _SUCCESS: an old partition's attempt and staged file, and one in the window.
    await l.put(`quarantine/clicks/v1/${hour(3)}/${attempt(20, 2)}/_REPORT.json`, report(1, 'failed: old'));
    await l.put(`staging/clicks/v1/${hour(4)}/part-0.parquet`, 'x');
    await l.put(`staging/clicks/v1/${hour(100)}/part-0.parquet`, 'x');
    const status = await readLakeStatus(l.store, { now: NOW, contracts: [hourly] });
    const cells = status.datasets[0]!.cells;
    expect(cells.map((c) => c.partition)).toEqual(Array.from({ length: MAX_PARTITIONS }, (_, i) => hour(71 + i)));
    expect(cells.at(-1)).toMatchObject({ partition: hour(100), state: 'in_staging' });
    expect(cells.slice(0, -1).every((c) => c.state === 'published')).toBe(true);
    expect(l.reads).toHaveLength(MAX_PARTITIONS - 1);
  });
});
