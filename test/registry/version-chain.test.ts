import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { registerContract } from '../../lib/registry/register-contract.js';
import { registryContracts } from '../../lib/registry/registry-contracts.js';
import { registryPager } from '../../lib/registry/registry-pager.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { NOW, RecordingNotifier } from '../fixtures/gate-fixture.js';
import { useLocalBucket } from '../fixtures/local-bucket.js';
import { sha256Hex } from '../../lib/storage/content-hash.js';

const ORDERS = readFileSync('contracts/orders.v1.yaml', 'utf8');
const orders = (version: string, edit: (yaml: string) => string = (y) => y) => edit(ORDERS.replace('version: 1.2.0', `version: ${version}`));
const withoutCoupon = (yaml: string) => yaml.replace(/^ {4}- \{ name: coupon.*\n/m, '');
const withRefunded = (yaml: string) => yaml.replace('enum: [placed, paid, cancelled]', 'enum: [placed, paid, cancelled, refunded]');

/** What a writer going around `publish` can do with the dataset's own grant: an object and a pointer to it. */
async function rawRegister(store: ObjectStore, version: string, text: string, file = 'orders.v1.yaml'): Promise<void> {
  const major = Number(version.split('.')[0]);
  const key = `_contracts/orders/v${major}/${version}.yaml`;
  await store.put(key, text);
  const pointer = { format: 'contract-gate/registry-pointer@1', name: 'orders', major, version, key, sha256: sha256Hex(text), file, registered_at: '2026-12-01T00:00:00Z' };
  await store.put(`_contracts/orders/v${major}/current.json`, JSON.stringify(pointer));
}

describe('the registry enforces compatibility, not only publish', () => {
  const bucket = useLocalBucket('cg-version-chain-', { each: true });
  const pagesOf = (notifier: RecordingNotifier) => notifier.notices.filter((n) => n.attributes.outcome === 'registry_refused');
  const inForce = async (store: ObjectStore, major = 1) => (await registryContracts(store, { refreshMs: 0 }).current()).find('orders', major)?.version.text;

  it('keeps the version in force when a raw pointer write names a breaking change with a patch bump, and pages the owner once with the changes', async () => {
    const { store } = bucket;
    await registerContract(store, { path: 'contracts/orders.v1.yaml', text: orders('1.2.0') }, { now: NOW });
    const notifier = new RecordingNotifier();
    const page = registryPager({ store, notifier, layout: DEFAULT_LAYOUT, clock: () => NOW });
    const warm = registryContracts(store, { refreshMs: 0, page });
    expect((await warm.current()).find('orders', 1)?.version.text).toBe('1.2.0');

    await rawRegister(store, '1.2.1', orders('1.2.1', withoutCoupon));
    const cold = registryContracts(store, { refreshMs: 0, page });
    for (const reader of [warm, cold, warm, cold]) expect((await reader.current()).find('orders', 1)?.version.text).toBe('1.2.0');
    const pages = pagesOf(notifier);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.attributes).toMatchObject({ contract: 'orders', version: 'v1', owner: 'orders-platform', severity: 'critical' });
    expect(pages[0]!.body).toContain('orders 1.2.1 against the registered 1.2.0: needs a major bump');
    expect(pages[0]!.body).toContain('orders 1.2.0 (registered): needs a major bump, declares patch: NOT OK');
    expect(pages[0]!.body).toMatch(/breaking\s+column_removed coupon/);
    expect(pages[0]!.body).toContain('orders 1.2.0 stays in force');
  });

  it('does not enforce a registered version overwritten with other bytes, and pages once', async () => {
    const { store } = bucket;
    await registerContract(store, { path: 'contracts/orders.v1.yaml', text: orders('1.2.0') }, { now: NOW });
    await registerContract(store, { path: 'contracts/orders.v1.yaml', text: orders('1.3.0', withRefunded) }, { now: NOW });
    await store.put('_contracts/orders/v1/1.3.0.yaml', orders('1.3.0', (y) => withRefunded(y).replace('min_rows: 1000', 'min_rows: 1')));
    const notifier = new RecordingNotifier();
    const page = registryPager({ store, notifier, layout: DEFAULT_LAYOUT, clock: () => NOW });
    // Cold readers: the pointer is unchanged, so only a fresh look reads the rewritten bytes.
    for (let reader = 0; reader < 3; reader++) expect((await registryContracts(store, { refreshMs: 0, page }).current()).find('orders', 1)?.version.text).toBe('1.2.0');
    expect(pagesOf(notifier)).toHaveLength(1);
    expect(pagesOf(notifier)[0]!.body).toContain('s3://lake/_contracts/orders/v1/1.3.0.yaml: its bytes are not the ones registered (SHA-256 differs)');
  });

  it('judges a cold start by the chain of versions: a version object that never came into force is skipped, not judged against', async () => {
    const { store } = bucket;
    await registerContract(store, { path: 'contracts/orders.v1.yaml', text: orders('1.0.0') }, { now: NOW });
    // Left by a raw write (or a publisher that lost the race for the pointer): breaking against 1.0.0.
    await store.put('_contracts/orders/v1/1.1.0.yaml', orders('1.1.0', withoutCoupon), { ifNoneMatch: '*' });
    expect((await registerContract(store, { path: 'contracts/orders.v1.yaml', text: orders('1.2.0', withRefunded) }, { now: NOW })).status).toBe('registered');
    expect(await inForce(store)).toBe('1.2.0');
    // A pointer to the skipped version is refused, and the newest version the chain accepts below it is in force.
    await rawRegister(store, '1.1.0', orders('1.1.0', withoutCoupon));
    expect(await inForce(store)).toBe('1.0.0');
  });

  it('takes a new major only from a file of its own when the dataset has an older major', async () => {
    const { store } = bucket;
    await registerContract(store, { path: 'contracts/orders.v1.yaml', text: orders('1.2.0') }, { now: NOW });
    await rawRegister(store, '2.0.0', orders('2.0.0', withoutCoupon), 'orders.yaml');
    const warnings: string[] = [];
    expect((await registryContracts(store, { refreshMs: 0, warn: (text) => warnings.push(text) }).current()).find('orders', 2)).toBeUndefined();
    expect(warnings.join('\n')).toContain('the first version of v2 must come from a file of its own, orders.v2.yaml, not "orders.yaml"');
    await rawRegister(store, '2.0.0', orders('2.0.0', withoutCoupon), 'orders.v2.yaml');
    expect(await inForce(store, 2)).toBe('2.0.0');
  });
});
