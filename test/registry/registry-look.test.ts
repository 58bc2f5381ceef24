import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { readRegistry } from '../../lib/registry/read-registry.js';
import { registerContract } from '../../lib/registry/register-contract.js';
import { registryContracts } from '../../lib/registry/registry-contracts.js';
import { registryPager } from '../../lib/registry/registry-pager.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { planEmailSubscriptions } from '../../lib/subscriptions/email-recipients.js';
import { dropExample, GOOD_PREFIX, NOW, RecordingNotifier } from '../fixtures/gate-fixture.js';
import { useLocalBucket } from '../fixtures/local-bucket.js';
import { sha256Hex } from '../../lib/storage/content-hash.js';

const ORDERS = readFileSync('contracts/orders.v1.yaml', 'utf8');
const ZETA = ORDERS.replace('name: orders', 'name: zeta').replace('version: 1.2.0', 'version: 1.0.0').replace('orders-oncall@', 'zeta-oncall@').replace('team: orders-platform', 'team: zeta-platform');

/** What an attacker holding only zeta's registry grant would like the gate to enforce for `orders`: nearly nothing. */
const loose = (version: string) => `name: orders
version: ${version}
status: active
owner: { team: mallory, notify: [mallory@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  extra_columns: allow
  columns:
    - { name: order_id, type: string }
compat: { mode: backward }
`;

/** A raw PUT of an object and a pointer at `at` (zeta's folder) whose content claims `claims`. */
async function plantPointer(store: ObjectStore, at: string, claims: { name: string; major: number; version: string; key: string }, text: string): Promise<void> {
  await store.put(claims.key, text, { ifNoneMatch: '*' }).catch(() => undefined);
  const pointer = { format: 'contract-gate/registry-pointer@1', ...claims, sha256: sha256Hex(text), file: 'orders.v1.yaml', registered_at: '2026-12-01T00:00:00Z' };
  await store.put(at, JSON.stringify(pointer));
}

/** Counts the GETs of object bodies and the HEADs, by key. */
function counting(store: ObjectStore): ObjectStore & { gets: Map<string, number> } {
  const gets = new Map<string, number>();
  return {
    ...store,
    location: store.location,
    gets,
    head: (key) => store.head(key),
    list: (prefix) => store.list(prefix),
    put: (key, body, options) => store.put(key, body, options),
    read: (key, start, end, options) => {
      gets.set(key, (gets.get(key) ?? 0) + 1);
      return store.read(key, start, end, options);
    },
  };
}

describe('a registry pointer is checked against where it lives', () => {
  const bucket = useLocalBucket('cg-registry-look-', { each: true });

  async function registered(store: ObjectStore): Promise<void> {
    await registerContract(store, { path: 'contracts/orders.v1.yaml', text: ORDERS }, { now: NOW });
    await registerContract(store, { path: 'contracts/zeta.v1.yaml', text: ZETA }, { now: NOW });
  }

  /** zeta's holder replaces zeta's own pointer of major 1, and adds one of major 2: both name orders. */
  async function spoof(store: ObjectStore): Promise<void> {
    // zeta's own major 1, then a major 2 of zeta's: both pointers name orders.
    await plantPointer(store, '_contracts/zeta/v1/current.json', { name: 'orders', major: 1, version: '1.2.1', key: '_contracts/zeta/v1/1.2.1.yaml' }, loose('1.2.1'));
    await plantPointer(store, '_contracts/zeta/v2/current.json', { name: 'orders', major: 2, version: '2.0.0', key: '_contracts/orders/v2/2.0.0.yaml' }, loose('2.0.0'));
    // Its own name and major, but the victim's registered object.
    const pointer = { format: 'contract-gate/registry-pointer@1', name: 'zeta', major: 3, version: '3.0.0', key: '_contracts/orders/v1/1.2.0.yaml', sha256: sha256Hex(ORDERS), file: 'zeta.v3.yaml', registered_at: '' };
    await store.put('_contracts/zeta/v3/current.json', JSON.stringify(pointer));
  }

  it('ignores a pointer in one dataset\'s folder that names another: the victim\'s bad drop is still quarantined and its unregistered major stays unknown', async () => {
    const { store } = bucket;
    await registered(store);
    const notifier = new RecordingNotifier();
    const warnings: string[] = [];
    const contracts = registryContracts(store, { refreshMs: 0, warn: (text) => warnings.push(text), page: registryPager({ store, notifier, layout: DEFAULT_LAYOUT, clock: () => NOW }) });
    await contracts.current();
    await spoof(store);
    const registry = await contracts.current();
    expect(registry.find('orders', 1)?.version.text).toBe('1.2.0');
    expect(registry.find('orders', 1)?.owner.team).toBe('orders-platform');
    expect(registry.find('orders', 2)).toBeUndefined();
    // zeta's last good version stays in force for a gate that had it; a cold one has none.
    expect(registry.find('zeta', 1)?.version.text).toBe('1.0.0');
    expect((await registryContracts(store, { refreshMs: 0 }).current()).all().map((c) => `${c.name} ${c.version.text}`)).toEqual(['orders 1.2.0']);

    await dropExample(store, 'bad');
    const result = await processMarker({ store, notifier, contracts, clock: () => NOW }, `${GOOD_PREFIX}_READY`);
    expect(result.status).toBe('quarantined');
    expect(warnings.join('\n')).toContain('s3://lake/_contracts/zeta/v1/current.json is ignored: it names orders v1, but a pointer at this key may only name zeta v1');
    expect(warnings.join('\n')).toContain('s3://lake/_contracts/zeta/v2/current.json is ignored: it names orders v2');
    expect(warnings.join('\n')).toContain('s3://lake/_contracts/zeta/v3/current.json is ignored: its key is _contracts/orders/v1/1.2.0.yaml, but the version it names lives at _contracts/zeta/v3/3.0.0.yaml');
    expect(registry.all().map((c) => `${c.name} v${c.version.major}`).sort()).toEqual(['orders v1', 'zeta v1']);
  });

  it('pages the owner in force once per pointer ETag, however many readers and looks see it', async () => {
    const { store } = bucket;
    await registered(store);
    const notifier = new RecordingNotifier();
    const page = registryPager({ store, notifier, layout: DEFAULT_LAYOUT, clock: () => NOW });
    const warm = registryContracts(store, { refreshMs: 0, page });
    await warm.refresh();
    await spoof(store);
    // Two gates (a warm Lambda and a cold one), each looking three times.
    for (const reader of [warm, registryContracts(store, { refreshMs: 0, page })]) {
      for (let look = 0; look < 3; look++) await reader.refresh();
    }
    const pages = notifier.notices.filter((n) => n.attributes.outcome === 'registry_refused');
    expect(pages.map((n) => [n.attributes.contract, n.attributes.version, n.attributes.owner])).toEqual([['zeta', 'v1', 'zeta-platform'], ['zeta', 'v2', 'unknown'], ['zeta', 'v3', 'unknown']]);
    expect(pages[0]!.body).toContain('zeta 1.0.0 stays in force');
    // A new ETag of the same pointer is a new page.
    await plantPointer(store, '_contracts/zeta/v1/current.json', { name: 'orders', major: 1, version: '1.2.2', key: '_contracts/zeta/v1/1.2.2.yaml' }, loose('1.2.2'));
    await registryContracts(store, { refreshMs: 0, page }).refresh();
    expect(notifier.notices.filter((n) => n.attributes.outcome === 'registry_refused')).toHaveLength(4);
  });

  it('gives the reconciler nothing of the victim\'s but its own contract to subscribe', async () => {
    const { store } = bucket;
    await registered(store);
    await spoof(store);
    const registry = await readRegistry(store);
    const planned = planEmailSubscriptions(registry.entries.map((e) => e.contract), []);
    expect(planned).toEqual([{ email: 'orders-oncall@example.com', contracts: ['orders'] }]);
    expect(registry.entries.map((e) => `${e.contract.name} ${e.contract.version.text} ${e.pointer.key}`)).toEqual(['orders 1.2.0 _contracts/orders/v1/1.2.0.yaml']);
    // While a pointer is not in force the reconciler removes no subscription (zeta's stays).
    expect(registry.problems).toHaveLength(3);
  });
});

describe('what an attacker can store in the registry costs a bounded amount', () => {
  const bucket = useLocalBucket('cg-registry-cost-');

  it('reads each of four oversized objects under an attacker\'s prefix at most once across many looks, and says why they are not in force', async () => {
    const store = counting(bucket.store);
    await registerContract(store, { path: 'contracts/orders.v1.yaml', text: ORDERS }, { now: NOW });
    const big = new Uint8Array(3 * 1024 * 1024).fill(0x20);
    // Two oversized pointers, and two honest-looking pointers to oversized version objects.
    await store.put('_contracts/zeta/v1/current.json', big);
    await store.put('_contracts/zeta/v2/current.json', big);
    for (const major of [3, 4]) {
      const key = `_contracts/zeta/v${major}/${major}.0.0.yaml`;
      await store.put(key, big);
      await store.put(`_contracts/zeta/v${major}/current.json`, JSON.stringify({ format: 'contract-gate/registry-pointer@1', name: 'zeta', major, version: `${major}.0.0`, key, sha256: sha256Hex(big), file: `zeta.v${major}.yaml`, registered_at: '' }));
    }
    const warnings: string[] = [];
    const contracts = registryContracts(store, { refreshMs: 0, warn: (text) => warnings.push(text) });
    store.gets.clear();
    for (let look = 0; look < 20; look++) expect((await contracts.current({ dataset: 'zeta', major: 1 })).find('orders', 1)?.version.text).toBe('1.2.0');
    const oversized = ['_contracts/zeta/v1/current.json', '_contracts/zeta/v2/current.json', '_contracts/zeta/v3/3.0.0.yaml', '_contracts/zeta/v4/4.0.0.yaml'];
    for (const key of oversized) expect(store.gets.get(key) ?? 0, key).toBeLessThanOrEqual(1);
    // Of zeta's objects only the v3 and v4 pointers were read, once each.
    expect([...store.gets].filter(([key]) => key.startsWith('_contracts/zeta/'))).toEqual([['_contracts/zeta/v3/current.json', 1], ['_contracts/zeta/v4/current.json', 1]]);
    expect(warnings).toHaveLength(4);
    expect(warnings.join('\n')).toContain('s3://lake/_contracts/zeta/v1/current.json is 3145728 bytes: a registry pointer is at most 8192');
    expect(warnings.join('\n')).toContain('s3://lake/_contracts/zeta/v3/3.0.0.yaml is 3145728 bytes: a registered contract is at most 1048576');
  });
});
