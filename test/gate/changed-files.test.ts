import { describe, expect, it } from 'vitest';
import { manifestText } from '../../lib/gate/manifest.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { examplePartition } from '../fixtures/example-partitions.js';
import { dropExample, gateDeps, GOOD_PREFIX, MARKER } from '../fixtures/gate-fixture.js';
import { interferingStore } from '../fixtures/interfering-store.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

const PUBLISHED = 'published/orders/v1/dt=2026-11-29/';
const SECOND = `${GOOD_PREFIX}part-0001.parquet`;
const BAD_SECOND = examplePartition('bad')[1]!.bytes;

function bytesOf(store: MemoryObjectStore, key: string): Uint8Array | undefined {
  return store.objects.get(key)?.body;
}

describe('a staged file that changes under the gate', () => {
  it('supersedes the drop when the file is overwritten while it is read: nothing moves, the owner is told why', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    const producer = interferingStore(store, (call, key) => call === 'read' && key === SECOND, async () => void (await store.put(SECOND, BAD_SECOND)));
    const deps = gateDeps(producer);
    const result = await processMarker(deps, MARKER);
    expect(producer.acted).toBe(true);
    expect(result.status).toBe('superseded');
    expect(store.keys('published/')).toEqual([]);
    expect(store.keys('quarantine/')).toEqual([]);
    expect(store.keys('staging/')).toEqual([`${GOOD_PREFIX}part-0000.parquet`, SECOND]);
    expect(bytesOf(store, SECOND)).toEqual(BAD_SECOND);
    expect(deps.notifier.notices.map((n) => [n.attributes.outcome, n.attributes.severity])).toEqual([['superseded', 'warning']]);
    expect(deps.notifier.notices[0]?.body).toContain(`${SECOND}: replaced`);
    const decision = 'decision' in result ? result.decision : undefined;
    expect(decision?.superseded).toEqual({ was: null, changed: [{ key: SECOND, listed: expect.any(String), now: store.objects.get(SECOND)?.info.etag }] });
  });

  it('supersedes the drop when a file is deleted while it is read', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    const producer = interferingStore(store, (call, key) => call === 'read' && key === SECOND, () => store.delete(SECOND));
    const result = await processMarker(gateDeps(producer), MARKER);
    expect(result.status).toBe('superseded');
    expect('decision' in result && result.decision.superseded?.changed).toEqual([{ key: SECOND, listed: expect.any(String), now: null }]);
    expect(store.keys('staging/')).toEqual([`${GOOD_PREFIX}part-0000.parquet`]);
  });

  it('publishes none of a passed drop whose file is replaced just before its copy, and keeps the new bytes in staging', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    const producer = interferingStore(store, (call, key) => call === 'copy' && key === `${PUBLISHED}part-0001.parquet`, async () => void (await store.put(SECOND, BAD_SECOND)));
    const deps = gateDeps(producer);
    const result = await processMarker(deps, MARKER);
    expect(result.status).toBe('superseded');
    expect('decision' in result && result.decision.superseded?.was).toBe('publish');
    expect(store.keys(PUBLISHED)).toEqual([]);
    expect(bytesOf(store, SECOND)).toEqual(BAD_SECOND);
    expect(store.keys('staging/')).toEqual([`${GOOD_PREFIX}part-0000.parquet`, SECOND]);
    expect(deps.notifier.notices.map((n) => n.attributes.outcome)).toEqual(['superseded']);
  });

  it('leaves the last publish standing when a backfill changes before the old manifest goes', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    await processMarker(gateDeps(store), MARKER);
    const before = store.text(`${PUBLISHED}_SUCCESS`);
    await dropExample(store, 'good');
    const producer = interferingStore(store, (call, key) => call === 'head' && key === `${PUBLISHED}_SUCCESS`, async () => void (await store.put(SECOND, BAD_SECOND)));
    expect((await processMarker(gateDeps(producer), MARKER)).status).toBe('superseded');
    expect(store.text(`${PUBLISHED}_SUCCESS`)).toBe(before);
  });

  it('takes back the copies of a quarantine that stopped at a changed file, so no attempt is left without a report', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'bad');
    const producer = interferingStore(store, (call, key) => call === 'copy' && key.startsWith('quarantine/') && key.endsWith('part-0001.parquet'), async () => void (await store.put(SECOND, new Uint8Array([1, 2, 3]))));
    const result = await processMarker(gateDeps(producer), MARKER);
    expect(result.status).toBe('superseded');
    expect(store.keys('quarantine/')).toEqual([]);
    expect(store.keys('staging/')).toEqual([`${GOOD_PREFIX}part-0000.parquet`, SECOND]);
  });
});

describe('one outcome per drop of a partition', () => {
  it('calls a marker put again after its drop was published a duplicate: nothing moves and nobody is paged again', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    const deps = gateDeps(store);
    const first = await processMarker(deps, MARKER);
    const published = store.keys(PUBLISHED).map((key) => [key, store.objects.get(key)?.info.etag]);
    await store.put(MARKER, '');
    const again = await processMarker(deps, MARKER);
    expect(again.status).toBe('duplicate');
    expect('decision' in again && 'decision' in first && again.decision.repeats).toBe('decision' in first ? first.decision.attempt : '');
    expect(store.keys(PUBLISHED).map((key) => [key, store.objects.get(key)?.info.etag])).toEqual(published);
    expect(store.keys('staging/')).toEqual([]);
    expect(deps.notifier.notices.map((n) => n.attributes.outcome)).toEqual(['published']);
  });

  it('runs a backfill that races its predecessor after it: the first is superseded, the second published', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    const deps = gateDeps(store);
    let second: Promise<unknown> | undefined;
    // The same rows with the two files swapped: it passes, and part-0001 is not what the first drop read.
    const good = examplePartition('good');
    const backfill = good.map((f, i) => ({ ...f, bytes: good[1 - i]!.bytes }));
    const producer = interferingStore(store, (call, key) => call === 'read' && key === SECOND, async () => {
      for (const file of backfill) await store.put(`${GOOD_PREFIX}${file.name}`, file.bytes);
      await store.put(MARKER, manifestText(backfill.map((f) => ({ relative: f.name, size: f.bytes.length }))));
      second = processMarker(deps, MARKER); // waits for the partition: the first drop holds it
    });
    const first = await processMarker({ ...deps, store: producer }, MARKER);
    const later = (await second) as Awaited<ReturnType<typeof processMarker>>;
    expect([first.status, later.status]).toEqual(['superseded', 'published']);
    expect(bytesOf(store, `${PUBLISHED}part-0001.parquet`)).toEqual(backfill[1]!.bytes);
    expect(deps.notifier.notices.map((n) => n.attributes.outcome)).toEqual(['superseded', 'published']);
  });

  it('quarantines a drop under a dataset no contract has, whatever its letters, and tells the alert topic', async () => {
    const store = new MemoryObjectStore();
    const prefix = 'staging/çhäos/v1/dt=2026-11-29/';
    await dropExample(store, 'good', prefix);
    const deps = gateDeps(store);
    const result = await processMarker(deps, `${prefix}_READY`);
    expect(result.status).toBe('quarantined');
    expect('decision' in result && result.decision.report.violations.map((v) => v.rule)).toEqual(['no_contract']);
    expect(store.keys('quarantine/çhäos/v1/dt=2026-11-29/').some((key) => key.endsWith('/_REPORT.json'))).toBe(true);
    expect(deps.notifier.notices.map((n) => [n.attributes.contract, n.attributes.owner, n.attributes.outcome])).toEqual([['çhäos', 'unknown', 'quarantined']]);
  });

  it('leaves the last publish standing when a backfill\'s staged file changes while the gate holds its bytes', async () => {
    const store = new MemoryObjectStore();
    const { files } = await dropExample(store, 'good');
    const first = await processMarker(gateDeps(store), MARKER);
    const before = store.keys(PUBLISHED).map((key) => [key, bytesOf(store, key)]);
    // A backfill under new names, whose second file the producer rewrites as the gate copies it.
    for (const [i, file] of files.entries()) await store.put(`${GOOD_PREFIX}renamed-${i}.parquet`, file.bytes);
    await store.put(MARKER, '');
    const producer = interferingStore(store, (call, key) => call === 'copy' && key.endsWith('/renamed-1.parquet'), async () => {
      await store.put(`${GOOD_PREFIX}renamed-1.parquet`, files[0]!.bytes);
    });
    const backfill = await processMarker({ ...gateDeps(store), store: producer }, MARKER);
    expect(producer.acted).toBe(true);
    expect(backfill.status).toBe('superseded');
    expect(store.keys(PUBLISHED).map((key) => [key, bytesOf(store, key)])).toEqual(before);
    expect(JSON.parse(new TextDecoder().decode(bytesOf(store, `${PUBLISHED}_SUCCESS`))).attempt).toBe('decision' in first ? first.decision.attempt : '');
    expect(store.keys('_gate/incoming/')).toEqual([]);
    expect(bytesOf(store, `${GOOD_PREFIX}renamed-1.parquet`)).toEqual(files[0]!.bytes);
  });

  it('sets aside, never deletes, the files an earlier publish had and a backfill has not', async () => {
    const store = new MemoryObjectStore();
    const { files } = await dropExample(store, 'good');
    await processMarker(gateDeps(store), MARKER);
    // The same rows under new names: the old names are no longer in the partition.
    for (const [i, file] of files.entries()) await store.put(`${GOOD_PREFIX}renamed-${i}.parquet`, file.bytes);
    await store.put(MARKER, '');
    const backfill = await processMarker(gateDeps(store), MARKER);
    expect(backfill.status).toBe('published');
    expect(store.keys(PUBLISHED)).toEqual([`${PUBLISHED}_SUCCESS`, `${PUBLISHED}renamed-0.parquet`, `${PUBLISHED}renamed-1.parquet`]);
    const attempt = 'decision' in backfill ? backfill.decision.attempt : '';
    for (const file of files) expect(bytesOf(store, `_gate/replaced/orders/v1/dt=2026-11-29/${attempt}/${file.key.slice(GOOD_PREFIX.length)}`)).toEqual(file.bytes);
  });

  it('keeps the marker a quarantine judged beside its files, even once a newer marker replaced it', async () => {
    const store = new MemoryObjectStore();
    const { files } = await dropExample(store, 'bad');
    const manifest = manifestText(files.map((f) => ({ relative: f.key.slice(GOOD_PREFIX.length), size: f.bytes.length })));
    await store.put(MARKER, manifest);
    const producer = interferingStore(store, (call, key) => call === 'copy' && key.endsWith('/_READY'), async () => void (await store.put(MARKER, 'a newer drop')));
    const result = await processMarker(gateDeps(producer), MARKER);
    expect(result.status).toBe('quarantined');
    const attempt = 'decision' in result ? result.decision.attempt : '';
    expect(store.text(`quarantine/orders/v1/dt=2026-11-29/${attempt}/_READY`)).toBe(manifest);
    expect(store.text(MARKER)).toBe('a newer drop');
  });
});
