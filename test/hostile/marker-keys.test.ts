import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, MAX_KEY_BYTES, parseMarkerKey, unsafeMarkerKey } from '../../lib/gate/gate-layout.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { keyPath } from '../../lib/storage/key-paths.js';
import { localObjectStore } from '../../lib/storage/local-object-store.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { dropExample, gateDeps } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

const UNSAFE: readonly [string, string, RegExp][] = [
  ['a ".." segment', 'staging/orders/v1/../../../etc/_READY', /"\." or "\.\." segment/],
  ['a partition ending in ".."', 'staging/orders/v1/dt=2026-11-29/../_READY', /"\." or "\.\." segment/],
  ['dt=../..', 'staging/orders/v1/dt=../../_READY', /"\." or "\.\." segment/],
  ['a "." segment', 'staging/orders/v1/./dt=2026-11-29/_READY', /"\." or "\.\." segment/],
  ['%2e%2e', 'staging/orders/v1/%2e%2e/%2e%2e/_READY', /percent-escape "%2e"/],
  ['a percent-escaped slash', 'staging/orders/v1/dt=2026-11-29%2F..%2F..%2Fx/_READY', /percent-escape "%2F"/],
  ['an absolute path after the prefix', 'staging//etc/passwd/_READY', /empty segment/],
  ['an empty segment', 'staging/orders/v1/dt=2026-11-29//_READY', /empty segment/],
  ['a NUL', 'staging/orders/v1/dt=2026-11-29\0/_READY', /control character \(U\+0000\)/],
  ['a newline', 'staging/orders/v1/dt=2026-11-29\n/_READY', /control character \(U\+000A\)/],
  ['an escape sequence', 'staging/orders/v1/dt=2026-11-29\u001b[2J/_READY', /control character \(U\+001B\)/],
  ['a C1 control character', 'staging/orders/v1/dt=2026-11-29\u0085/_READY', /control character \(U\+0085\)/],
  ['a backslash', 'staging/orders/v1/dt=2026-11-29\\..\\..\\x/_READY', /backslash/],
  ['a lone surrogate', 'staging/orders/v1/dt=\ud800/_READY', /lone surrogate/],
  ['a key over 1024 bytes', `staging/orders/v1/dt=2026-11-29/${'x/'.repeat(520)}_READY`, /bytes long; an S3 key is at most 1024/],
  ['a partition path over 256 bytes', `staging/orders/v1/${'p=x/'.repeat(70)}_READY`, /partition path is 279 bytes long/],
];

/** Safe to name, but not the contract's partition: quarantined with a report like any bad_partition. */
const OFF_TEMPLATE: readonly [string, string][] = [
  ['another partition key', 'staging/orders/v1/date=2026-11-29/'],
  ['an extra level', 'staging/orders/v1/dt=2026-11-29/hr=06/'],
  ['dt=..', 'staging/orders/v1/dt=../'],
  ['an impossible date', 'staging/orders/v1/dt=2026-02-30/'],
  ['a trailing space', 'staging/orders/v1/dt=2026-11-29 /'],
  ['a literal percent sign', 'staging/orders/v1/dt=100%/'],
];

describe('marker keys that cannot be handled safely', () => {
  it.each(UNSAFE)('are recognised: %s', (_what, key, reason) => {
    expect(unsafeMarkerKey(DEFAULT_LAYOUT, key)).toMatch(reason);
    expect(parseMarkerKey(DEFAULT_LAYOUT, key)).toBeUndefined();
  });

  it('leave ordinary marker keys alone', () => {
    expect(unsafeMarkerKey(DEFAULT_LAYOUT, 'staging/orders/v1/dt=2026-11-29/hr=06/_READY')).toBeUndefined();
    expect(parseMarkerKey(DEFAULT_LAYOUT, 'staging/orders/v1/dt=2026-11-29/_READY')).toEqual({ dataset: 'orders', major: 1, partition: 'dt=2026-11-29' });
    expect(unsafeMarkerKey(DEFAULT_LAYOUT, 'staging/orders/v1/dt=2026-11-29/../part-0.parquet')).toBeUndefined(); // not a marker: no decision
  });

  it.each(UNSAFE)('are ignored with the reason, and the in-memory store is left exactly as it was: %s', async (_what, key, reason) => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good', key.slice(0, -'_READY'.length));
    const before = store.keys();
    const deps = gateDeps(store);
    const result = await processMarker(deps, key);
    expect(result).toMatchObject({ status: 'ignored', reason: expect.stringMatching(/^unsafe marker key, left in staging: /) });
    expect(result.status === 'ignored' && result.reason).toMatch(reason);
    expect(result.key.length).toBeLessThanOrEqual(301);
    expect(store.keys()).toEqual(before);
    expect(deps.notifier.notices).toEqual([]);
  });
});

describe('the local object store under hostile marker keys', () => {
  let base: string;
  let root: string;
  let store: ObjectStore;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'hostile-keys-'));
    root = join(base, 'bucket');
    store = localObjectStore({ root });
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  async function filesBelow(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((e) => !e.isDirectory()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
  }

  it('never resolves any of them, or their quarantine and published twins, outside its root', () => {
    for (const [, key] of UNSAFE) {
      for (const variant of [key, key.replace('staging/', 'quarantine/'), key.replace('staging/', 'published/')]) {
        let path: string | undefined;
        try {
          path = keyPath(resolve(root), variant, 'test');
        } catch (error) {
          expect(error).toMatchObject({ name: 'GateError', code: 'bad_arguments' });
        }
        if (path !== undefined) expect(path.startsWith(resolve(root) + sep), variant).toBe(true);
      }
    }
  });

  it.each(UNSAFE)('ignores a forged event for %s without touching a file', async (_what, key) => {
    await dropExample(store, 'good');
    // The store itself may refuse to stage such a key; an event can name it anyway.
    await store.put(key, '').catch((error) => expect(error).toMatchObject({ name: 'GateError' }));
    const before = await filesBelow(root);
    const deps = gateDeps(store);
    expect((await processMarker(deps, key)).status).toBe('ignored');
    expect(await filesBelow(root)).toEqual(before);
    expect(await readdir(base)).toEqual(['bucket']);
    expect(deps.notifier.notices).toEqual([]);
  });

  it.each(OFF_TEMPLATE)('quarantines a partition with %s, with a bad_partition report, inside the root', async (_what, prefix) => {
    await dropExample(store, 'good', prefix);
    const deps = gateDeps(store);
    const result = await processMarker(deps, `${prefix}_READY`);
    if (result.status !== 'quarantined') throw new Error(`expected quarantine, got ${result.status}`);
    expect(result.decision.report.violations.map((v) => v.rule)).toEqual(['bad_partition']);
    const files = await filesBelow(root);
    expect(files.filter((f) => f.startsWith('staging'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('quarantine'))).toHaveLength(5);
    expect(await readdir(base)).toEqual(['bucket']);
    expect(deps.notifier.notices).toHaveLength(1);
  });
});

describe('the in-memory store under marker keys off the template', () => {
  it.each(OFF_TEMPLATE)('quarantines a partition with %s with a bad_partition report', async (_what, prefix) => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good', prefix);
    const result = await processMarker(gateDeps(store), `${prefix}_READY`);
    if (result.status !== 'quarantined') throw new Error(`expected quarantine, got ${result.status}`);
    expect(result.decision.report.violations[0]?.message).toContain('does not fit the contract\'s template "dt={ds}"');
    expect(store.keys('staging/')).toEqual([]);
    expect(store.keys('quarantine/').every((key) => Buffer.byteLength(key) <= MAX_KEY_BYTES)).toBe(true);
  });
});
