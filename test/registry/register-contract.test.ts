import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRegistry } from '../../lib/registry/read-registry.js';
import { registerContract, type RegisterOutcome } from '../../lib/registry/register-contract.js';
import { parsePointer } from '../../lib/registry/registry-layout.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { BUCKET, startEmulatorFixture, type EmulatorFixture } from '../local/emulator-fixture.js';
import { sha256Hex } from '../../lib/storage/content-hash.js';

const ORDERS = readFileSync('contracts/orders.v1.yaml', 'utf8');
const NOW = Date.parse('2026-12-01T09:00:00Z');

/** The shipped orders contract as dataset `name` at `version`, optionally edited. */
function contractText(name: string, version: string, edit: (yaml: string) => string = (y) => y): string {
  return edit(ORDERS.replace('name: orders', `name: ${name}`).replace('version: 1.2.0', `version: ${version}`));
}
const withRefunded = (yaml: string) => yaml.replace('enum: [placed, paid, cancelled]', 'enum: [placed, paid, cancelled, refunded]');
const withoutCoupon = (yaml: string) => yaml.replace(/^ {4}- \{ name: coupon.*\n/m, '');

describe('registering contracts on the bucket', () => {
  let fixture: EmulatorFixture;
  let store: ObjectStore;
  beforeAll(async () => {
    fixture = await startEmulatorFixture();
    store = s3ObjectStore({ client: fixture.client, bucket: BUCKET });
  });
  afterAll(() => fixture.close());

  const register = (name: string, text: string, file = `contracts/${name}.v${/version: (\d+)/.exec(text)![1]}.yaml`) => registerContract(store, { path: file, text }, { now: NOW });
  const pointerOf = async (name: string, major: number) => parsePointer(new TextDecoder().decode(await readWhole(store, `_contracts/${name}/v${major}/current.json`)));

  it('registers a new contract as an immutable version object and a pointer to it', async () => {
    const outcome = await register('alpha', contractText('alpha', '1.0.0'));
    expect(outcome).toMatchObject({ status: 'registered', name: 'alpha', version: '1.0.0', key: 's3://lake/_contracts/alpha/v1/1.0.0.yaml', reason: 'a new contract' });
    expect(new TextDecoder().decode(await readWhole(store, '_contracts/alpha/v1/1.0.0.yaml'))).toBe(contractText('alpha', '1.0.0'));
    expect(await pointerOf('alpha', 1)).toMatchObject({ version: '1.0.0', sha256: sha256Hex(contractText('alpha', '1.0.0')), file: 'alpha.v1.yaml' });
  });

  it('moves the pointer for a change with the bump it needs, and says what the change was', async () => {
    const outcome = await register('alpha', contractText('alpha', '1.1.0', withRefunded));
    expect(outcome.status).toBe('registered');
    expect(outcome.reason).toBe('was 1.0.0: needs a minor bump, declares minor: OK');
    expect(outcome.diff?.result.changes.map((c) => c.change)).toEqual(['enum_value_added']);
    expect((await pointerOf('alpha', 1))?.version).toBe('1.1.0');
  });

  it('refuses a change needing a bigger bump than declared, naming the version to set', async () => {
    const outcome = await register('alpha', contractText('alpha', '1.1.1', (y) => withRefunded(y).replace('max_length: 32', 'max_length: 64')));
    expect(outcome).toMatchObject({ status: 'refused', reason: 'alpha 1.1.1 against the registered 1.1.0: needs a minor bump, declares patch: NOT OK; set version to 1.2.0' });
    expect((await pointerOf('alpha', 1))?.version).toBe('1.1.0');
  });

  it('refuses to rewrite a registered version with other content, and to go back to a lower one', async () => {
    expect(await register('alpha', contractText('alpha', '1.1.0'))).toMatchObject({ status: 'refused', reason: expect.stringContaining('is registered with other content') });
    expect(await register('alpha', contractText('alpha', '1.0.0', (y) => y.replace('max_length: 32', 'max_length: 33')))).toMatchObject({ status: 'refused', reason: expect.stringContaining('is registered with other content') });
    expect(await register('alpha', contractText('alpha', '1.0.5'))).toMatchObject({ status: 'refused', reason: 'alpha 1.0.5 against the registered 1.1.0: the version is lower than the one in force' });
  });

  it('takes an identical file, in force or older, as a no-op', async () => {
    expect(await register('alpha', contractText('alpha', '1.1.0', withRefunded))).toMatchObject({ status: 'unchanged', reason: 'already registered as alpha 1.1.0' });
    expect(await register('alpha', contractText('alpha', '1.0.0'))).toMatchObject({ status: 'unchanged', reason: 'already registered as alpha 1.0.0 (a newer version is in force)' });
  });

  it('registers a breaking change as a new major in a file of its own, v1 staying in force beside it', async () => {
    expect(await register('alpha', contractText('alpha', '1.2.0', (y) => withoutCoupon(withRefunded(y))))).toMatchObject({ status: 'refused', reason: expect.stringContaining('needs a major bump: a new major version is a new file alpha.v2.yaml') });
    const v2 = await register('alpha', contractText('alpha', '2.0.0', withoutCoupon), 'contracts/alpha.v2.yaml');
    expect(v2).toMatchObject({ status: 'registered', reason: expect.stringMatching(/^a new major; alpha 1.1.0 \(the previous major, for information\): needs a major bump/) });
    const { entries } = await readRegistry(store);
    expect(entries.filter((e) => e.contract.name === 'alpha').map((e) => e.contract.version.text).sort()).toEqual(['1.1.0', '2.0.0']);
  });

  it('refuses a file that does not load, with every problem and its position', async () => {
    const outcome = await register('beta', contractText('beta', '1.0.0', (y) => y.replace('type: timestamp, required: true, not_in_future', 'type: timestmp, required: true, not_in_future')));
    expect(outcome.status).toBe('refused');
    expect(outcome.problems.join('\n')).toMatch(/contracts\/beta\.v1\.yaml:\d+:\d+ error/);
    expect(await readWhole(store, '_contracts/beta/v1/current.json')).toBeUndefined();
  });

  it('converges when publishers race: one version in force, every registered version kept, the pointer only moving up', async () => {
    const texts = ['1.0.0', '1.1.0', '1.2.0', '1.3.0'].map((v, i) => contractText('gamma', v, (y) => y.replace('max_length: 32', `max_length: ${32 + i}`)));
    const outcomes: RegisterOutcome[] = await Promise.all([...texts, ...texts].map((text) => register('gamma', text)));
    const pointer = (await pointerOf('gamma', 1))!;
    const registered = outcomes.filter((o) => o.status === 'registered').map((o) => o.version!);
    expect(registered).toContain(pointer.version);
    for (const version of registered) expect(compare(version, pointer.version)).toBeLessThanOrEqual(0);
    expect(sha256Hex(await readWhole(store, pointer.key) as Uint8Array)).toBe(pointer.sha256);
    for (const o of outcomes.filter((o) => o.status === 'refused')) expect(o.reason).toMatch(/lower than the one in force|needs/);
    // Whatever the interleaving, registering the newest again now is a no-op or a step up to it.
    expect((await register('gamma', texts[3]!)).status).toMatch(/unchanged|registered/);
    expect((await pointerOf('gamma', 1))?.version).toBe('1.3.0');
  });
});

function compare(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
