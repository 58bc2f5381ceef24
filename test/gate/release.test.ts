import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLatest } from '../../lib/gate/audit-chain.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { releaseAttempt } from '../../lib/gate/release.js';
import type { LeaseSettings } from '../../lib/gate/partition-lease.js';
import type { GateReport } from '../../lib/gate/gate-report.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { crashingStore, Crash } from '../fixtures/crashing-store.js';
import { expectNothingLost } from '../fixtures/no-loss.js';
import { dropAndSettle, keys, lakeNotifier, notices, onlyAttempt, readJson, startOwnerLake, type OwnerLake } from './owner-action-fixture.js';

const OWNER = { by: 'arn:aws:iam::123456789012:user/orders-owner', reason: 'the finance close needs it today; the bad rows are fixed downstream' };
let lake: OwnerLake;

beforeAll(async () => {
  lake = await startOwnerLake();
});
afterAll(() => lake.stop());

/** Each run a process of its own: its own notifier on the lake's notifications file. */
const deps = (store: ObjectStore = lake.gate.store, lease?: LeaseSettings) => ({
  store, notifier: lakeNotifier(lake), layout: DEFAULT_LAYOUT, clock: () => lake.tick(), ...(lease ? { lease } : {}),
});

interface Success {
  attempt: string;
  checks: { status: string; violations: number };
  files: { key: string; size: number; etag: string }[];
  release?: { override: boolean; by: string; reason: string; from_attempt: string };
}

describe('release: a quarantined attempt published as it is, by its owner', () => {
  it('publishes the files with a _SUCCESS saying the checks failed and who released it, why, from which attempt', async () => {
    await dropAndSettle(lake, 'bad', 'dt=2026-12-10');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-10');
    const quarantined = await keys(lake.gate.store, ref.prefix);
    expect(await releaseAttempt(deps(), ref, OWNER)).toMatchObject({ status: 'released', resumed: false });
    const success = await readJson<Success>(lake.gate.store, 'published/orders/v1/dt=2026-12-10/_SUCCESS');
    expect(success).toMatchObject({ checks: { status: 'fail', violations: 7 }, release: { override: true, ...OWNER, from_attempt: ref.attempt } });
    expect(success.attempt > ref.attempt).toBe(true);
    expect(await keys(lake.gate.store, 'published/orders/v1/dt=2026-12-10/')).toEqual(['_SUCCESS', 'part-0000.parquet', 'part-0001.parquet'].map((n) => `published/orders/v1/dt=2026-12-10/${n}`));
    for (const file of success.files) {
      const source = await lake.gate.store.head(`${ref.prefix}${file.key.split('/').at(-1)}`);
      expect({ size: file.size, etag: file.etag }).toEqual({ size: source?.size, etag: source?.etag });
    }
    // The attempt stays whole in quarantine: the record of what was released.
    expect(await keys(lake.gate.store, ref.prefix)).toEqual(quarantined);
  });

  it('tells the owner once that the partition was released by override, by whom, why and from which attempt', async () => {
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-10');
    const [quarantine, release, ...more] = notices(lake, 'dt=2026-12-10');
    expect({ quarantine: quarantine?.attributes.outcome, more }).toEqual({ quarantine: 'quarantined', more: [] });
    expect(release?.attributes).toMatchObject({ outcome: 'published', severity: 'warning' });
    expect(release?.subject).toContain('dt=2026-12-10 RELEASED by override');
    expect(release?.body).toContain(`Released:  by ${OWNER.by} at `);
    expect(release?.body).toContain(`because: ${OWNER.reason}`);
    expect(release?.body).toContain(`From:      quarantine attempt ${ref.attempt} (s3://lake/${ref.prefix})`);
    expect(release?.body).toContain('Top violations:');
  });

  it('keeps an audit record of who released what, why, and where each file went', async () => {
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-10');
    const audit = (await readLatest(lake.gate.store, DEFAULT_LAYOUT, ref, 'release'))!.record;
    expect(audit).toMatchObject({ action: 'release', state: 'done', ...OWNER, success: 'published/orders/v1/dt=2026-12-10/_SUCCESS', decision: `_gate/decisions/orders/v1/dt=2026-12-10/release-${ref.attempt}.json` });
    expect(audit.copies.map((c) => [c.from, c.to])).toEqual(['part-0000.parquet', 'part-0001.parquet'].map((n) => [`${ref.prefix}${n}`, `published/orders/v1/dt=2026-12-10/${n}`]));
  });

  it('changes nothing and notifies no one when run again, and says it was already done', async () => {
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-10');
    const before = await keys(lake.gate.store, '');
    expect(await releaseAttempt(deps(), ref, { by: 'someone-else', reason: 'again' })).toMatchObject({ status: 'already_released', audit: { by: OWNER.by } });
    expect(await keys(lake.gate.store, '')).toEqual(before);
    expect(notices(lake, 'dt=2026-12-10')).toHaveLength(2);
  });

  it('is refused once a newer drop of the partition was published, leaving that publish standing', async () => {
    await dropAndSettle(lake, 'bad', 'dt=2026-12-11');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-11');
    lake.tick();
    await dropAndSettle(lake, 'good', 'dt=2026-12-11');
    const newer = await readJson<Success>(lake.gate.store, 'published/orders/v1/dt=2026-12-11/_SUCCESS');
    const result = await releaseAttempt(deps(), ref, OWNER);
    expect(result).toMatchObject({ status: 'refused', reason: expect.stringContaining(`is from attempt ${newer.attempt} (a newer drop), later than ${ref.attempt}`) });
    expect(await readJson<Success>(lake.gate.store, 'published/orders/v1/dt=2026-12-11/_SUCCESS')).toEqual(newer);
    expect(await keys(lake.gate.store, `_gate/decisions/orders/v1/dt=2026-12-11/release-`)).toEqual([]);
    expect(await keys(lake.gate.store, '_audit/orders/v1/dt=2026-12-11/')).toEqual([]);
  });
});

describe('a release killed before any storage call', () => {
  it('ends, once run again, with the files published exactly once, the owner told once, and nothing lost', async () => {
    let crashAt = 1;
    for (; ; crashAt++) {
      const partition = `dt=2026-09-${String(crashAt).padStart(2, '0')}`;
      lake.tick();
      const staged = await dropAndSettle(lake, 'bad', partition);
      const ref = await onlyAttempt(lake.gate.store, partition);
      const quarantined = await keys(lake.gate.store, ref.prefix);
      // A dead holder's lease has expired by the time anyone looks (the clock only moves on).
      const died = await releaseAttempt(deps(crashingStore(lake.gate.store, crashAt), { holder: 'dying', ttlMs: 1 }), ref, OWNER).then(() => false, (error: unknown) => error instanceof Crash);
      if (!died) break;
      await expectNothingLost(lake.gate.store, staged);
      const rerun = await releaseAttempt(deps(), ref, OWNER);
      expect({ crashAt, status: rerun.status }).toEqual({ crashAt, status: expect.stringMatching(/^(already_)?released$/) });
      await expectNothingLost(lake.gate.store, staged);
      const published = `published/orders/v1/${partition}/`;
      const success = await readJson<Success>(lake.gate.store, `${published}_SUCCESS`);
      expect({ crashAt, published: await keys(lake.gate.store, published), release: success.release?.from_attempt }).toEqual({
        crashAt, published: ['_SUCCESS', 'part-0000.parquet', 'part-0001.parquet'].map((n) => `${published}${n}`), release: ref.attempt,
      });
      expect({ crashAt, replaced: await keys(lake.gate.store, `_gate/replaced/orders/v1/${partition}/`), quarantine: await keys(lake.gate.store, ref.prefix) }).toEqual({ crashAt, replaced: [], quarantine: quarantined });
      expect({ crashAt, told: notices(lake, partition).map((n) => n.attributes.outcome) }).toEqual({ crashAt, told: ['quarantined', 'published'] });
      expect({ crashAt, audited: (await keys(lake.gate.store, `_audit/orders/v1/${partition}/`)).length }).toEqual({ crashAt, audited: 1 });
    }
    // The lease, the decision, two copies, _SUCCESS, the notice claim, its "sent", the completion, the audit record.
    expect(crashAt).toBeGreaterThan(9);
  });
});

/** Puts bytes of the same size, one of them changed, in place of a quarantined file: what the outside review did. */
async function replaceSameSize(store: ObjectStore, key: string): Promise<{ judged: string; now: string }> {
  const judged = await store.head(key);
  const bytes = Uint8Array.from((await readWhole(store, key))!);
  bytes[bytes.length >> 1]! ^= 0xff;
  const { etag } = await store.put(key, bytes);
  expect((await store.head(key))?.size).toBe(judged?.size);
  return { judged: judged!.etag, now: etag };
}

/** A `_REPORT.json` as the gate wrote it before it recorded the ETags of the quarantine copies. */
async function withoutCopyEtags(store: ObjectStore, key: string): Promise<void> {
  const { quarantined: _dropped, ...older } = await readJson<GateReport>(store, key);
  await store.put(key, `${JSON.stringify(older, null, 2)}\n`);
}

describe('release publishes only the versions the gate quarantined', () => {
  it('finds the ETag of every copy in the quarantine folder recorded in its _REPORT.json', async () => {
    await dropAndSettle(lake, 'bad', 'dt=2026-12-13');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-13');
    const report = await readJson<GateReport>(lake.gate.store, `${ref.prefix}_REPORT.json`);
    const here = await Promise.all(['part-0000.parquet', 'part-0001.parquet'].map(async (n) => {
      const info = await lake.gate.store.head(`${ref.prefix}${n}`);
      return { key: `${ref.prefix}${n}`, size: info?.size, etag: info?.etag };
    }));
    expect(report.quarantined).toEqual(here);
  });

  it('refuses a same-size replacement of a quarantined file, naming it and both ETags, and publishes nothing', async () => {
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-13');
    const key = `${ref.prefix}part-0000.parquet`;
    const { judged, now } = await replaceSameSize(lake.gate.store, key);
    const result = await releaseAttempt(deps(), ref, OWNER);
    expect(result).toEqual({ status: 'refused', reason: expect.stringContaining(`s3://lake/${key} has ETag ${now}, not ${judged}, which the report recorded for the copy the gate quarantined`) });
    expect(result).toEqual({ status: 'refused', reason: expect.stringContaining('restore the version the gate quarantined') });
    expect(await keys(lake.gate.store, 'published/orders/v1/dt=2026-12-13/')).toEqual([]);
    expect(await keys(lake.gate.store, '_gate/decisions/orders/v1/dt=2026-12-13/release-')).toEqual([]);
    expect(await keys(lake.gate.store, '_gate/audit/orders/v1/dt=2026-12-13/')).toEqual([]);
    expect(await keys(lake.gate.store, '_gate/leases/orders/v1/dt=2026-12-13/')).toEqual([]);
    expect(notices(lake, 'dt=2026-12-13').map((n) => n.attributes.outcome)).toEqual(['quarantined']);
  });

  it('with a report older than those ETags, releases files that keep the staged ETags the gate judged', async () => {
    await dropAndSettle(lake, 'bad', 'dt=2026-12-14');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-14');
    await withoutCopyEtags(lake.gate.store, `${ref.prefix}_REPORT.json`);
    expect(await releaseAttempt(deps(), ref, OWNER)).toMatchObject({ status: 'released' });
  });

  it('with a report older than those ETags, refuses a replaced file and says to redrive the attempt instead', async () => {
    await dropAndSettle(lake, 'bad', 'dt=2026-12-15');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-15');
    await withoutCopyEtags(lake.gate.store, `${ref.prefix}_REPORT.json`);
    const key = `${ref.prefix}part-0001.parquet`;
    const { judged, now } = await replaceSameSize(lake.gate.store, key);
    const result = await releaseAttempt(deps(), ref, OWNER);
    expect(result).toEqual({ status: 'refused', reason: expect.stringContaining(`s3://lake/${key} has ETag ${now}, not ${judged}, which the staged file the gate judged had`) });
    expect(result).toEqual({ status: 'refused', reason: expect.stringContaining('redrive the attempt instead') });
    expect(await keys(lake.gate.store, 'published/orders/v1/dt=2026-12-15/')).toEqual([]);
  });
});
