import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRegistry } from '../../lib/registry/read-registry.js';
import { registerContract, type RegisterOutcome } from '../../lib/registry/register-contract.js';
import type { MigrationSource } from '../../lib/registry/register-migration.js';
import { parsePointer } from '../../lib/registry/registry-layout.js';
import { readRegisteredMigration } from '../../lib/registry/registry-objects.js';
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

describe('registering a new major with its migration document', () => {
  let fixture: EmulatorFixture;
  let store: ObjectStore;
  beforeAll(async () => {
    fixture = await startEmulatorFixture();
    store = s3ObjectStore({ client: fixture.client, bucket: BUCKET });
  });
  afterAll(() => fixture.close());

  const deprecated = (name: string) => contractText(name, '1.1.0', (y) => y.replace('status: active', 'status: deprecated\nsunset: 2027-01-31'));
  const documents = new Map<string, string>();
  /** The documents as a repository holds them, in contracts/migrations/. */
  const migrations: MigrationSource = async (_contract, fileName) => {
    const path = `contracts/migrations/${fileName}`;
    const text = documents.get(fileName);
    return text === undefined ? { path } : { path, text };
  };
  const register = (name: string, text: string, major = Number(/version: (\d+)/.exec(text)![1])) => registerContract(store, { path: `contracts/${name}.v${major}.yaml`, text }, { now: NOW, migrations });
  const pointerOf = async (name: string, major: number) => parsePointer(new TextDecoder().decode(await readWhole(store, `_contracts/${name}/v${major}/current.json`)));
  const documentFor = (name: string) => `# ${name} v1 to v2\n\n## What changed\n\n- coupon is removed.\n\n## Affected downstream models\n\n- stg_${name}\n\n## Timeline\n\n- 2027-01-10 the window opens; 2027-01-31 v1 sunset.\n\n## Action required\n\n- Stop reading coupon.\n`;

  it('refuses the first version of v2 without its document, naming the file to write, and registers nothing of v2', async () => {
    expect(await register('delta', contractText('delta', '1.0.0'))).toMatchObject({ status: 'registered' });
    // A minor of v1 (deprecating it) needs no document.
    expect(await register('delta', deprecated('delta'))).toMatchObject({ status: 'registered', reason: 'was 1.0.0: needs a minor bump, declares minor: OK' });
    const outcome = await register('delta', contractText('delta', '2.0.0', withoutCoupon));
    expect(outcome).toMatchObject({ status: 'refused', reason: expect.stringContaining('delta v2 is a new major and needs a migration document: write contracts/migrations/delta_v1_to_v2.md') });
    expect(outcome.reason).toContain('(start from: contract-gate diff contracts/delta.v1.yaml contracts/delta.v2.yaml --migration-skeleton contracts/migrations/delta_v1_to_v2.md)');
    expect(outcome.diff?.result.changes.map((c) => c.change)).toContain('column_removed');
    expect((await fixture.listAll('_contracts/delta/v2/')).keys).toEqual([]);
  });

  it('stores the document beside the version with its SHA-256 in the pointer, and a later v2 version keeps it', async () => {
    documents.set('delta_v1_to_v2.md', documentFor('delta'));
    const outcome = await register('delta', contractText('delta', '2.0.0', withoutCoupon));
    expect(outcome).toMatchObject({ status: 'registered', migration: 's3://lake/_contracts/delta/v2/2.0.0.migration.md' });
    const pointer = (await pointerOf('delta', 2))!;
    expect(pointer.migration).toEqual({ key: '_contracts/delta/v2/2.0.0.migration.md', sha256: sha256Hex(documentFor('delta')), file: 'delta_v1_to_v2.md' });
    expect(await readRegisteredMigration(store, pointer)).toEqual({ text: documentFor('delta') });

    documents.clear();
    const minor = await register('delta', contractText('delta', '2.1.0', (y) => withRefunded(withoutCoupon(y))));
    expect(minor).toMatchObject({ status: 'registered', reason: 'was 2.0.0: needs a minor bump, declares minor: OK' });
    expect(minor.migration).toBeUndefined();
    expect((await pointerOf('delta', 2))?.migration).toEqual(pointer.migration);
  });

  it('refuses a document that is not the one already stored with that version, and reports one whose bytes changed', async () => {
    await register('epsilon', deprecated('epsilon'));
    await fixture.put('_contracts/epsilon/v2/2.0.0.migration.md', 'another publisher\'s document\n');
    documents.set('epsilon_v1_to_v2.md', documentFor('epsilon'));
    const outcome = await register('epsilon', contractText('epsilon', '2.0.0', withoutCoupon));
    expect(await fixture.listAll('_contracts/epsilon/v2/')).toMatchObject({ keys: ['_contracts/epsilon/v2/2.0.0.migration.md'] });
    expect(outcome).toMatchObject({ status: 'refused', reason: 's3://lake/_contracts/epsilon/v2/2.0.0.migration.md holds another migration document for epsilon 2.0.0 (a publish of it cut short, or a concurrent one): publish that document again, or bump the version' });

    const pointer = (await pointerOf('delta', 2))!;
    await fixture.put(pointer.migration!.key, 'rewritten\n');
    expect(await readRegisteredMigration(store, pointer)).toEqual({ problem: 's3://lake/_contracts/delta/v2/2.0.0.migration.md: its bytes are not the ones registered (SHA-256 differs)' });
  });
});

function compare(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
