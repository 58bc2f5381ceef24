import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerContract } from '../../lib/registry/register-contract.js';
import { registryContracts } from '../../lib/registry/registry-contracts.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { BUCKET, startEmulatorFixture, type EmulatorFixture } from '../local/emulator-fixture.js';
import { sha256Hex } from '../../lib/storage/content-hash.js';

const ORDERS = readFileSync('contracts/orders.v1.yaml', 'utf8');
const contractText = (name: string, version: string, maxLength = 32) =>
  ORDERS.replace('name: orders', `name: ${name}`).replace('version: 1.2.0', `version: ${version}`).replace('max_length: 32', `max_length: ${maxLength}`);

/** The store, counting the reads of object bodies: a look that finds nothing new reads none. */
function countingReads(store: ObjectStore): ObjectStore & { reads: number } {
  const counted = { ...store, reads: 0 } as ObjectStore & { reads: number };
  counted.read = (key, start, end, options) => {
    counted.reads += 1;
    return store.read(key, start, end, options);
  };
  counted.list = (prefix) => store.list(prefix);
  counted.head = (key) => store.head(key);
  return counted;
}

describe('the gate reading contracts from the registry', () => {
  let fixture: EmulatorFixture;
  let store: ObjectStore & { reads: number };
  let now = 0;
  const warnings: string[] = [];
  beforeAll(async () => {
    fixture = await startEmulatorFixture();
    store = countingReads(s3ObjectStore({ client: fixture.client, bucket: BUCKET }));
  });
  afterAll(() => fixture.close());
  const register = (name: string, version: string, maxLength?: number) => registerContract(store, { path: `${name}.v1.yaml`, text: contractText(name, version, maxLength) }, { now: 0 });

  it('finds a contract registered after its last look as soon as a drop names it, and the rest only after the refresh interval', async () => {
    const source = registryContracts(store, { refreshMs: 60_000, clock: () => now, warn: (text) => warnings.push(text) });
    await register('alpha', '1.0.0');
    expect((await source.current()).find('alpha', 1)?.version.text).toBe('1.0.0');

    await register('alpha', '1.1.0', 40);
    await register('beta', '1.0.0');
    now += 1_000;
    expect((await source.current()).find('alpha', 1)?.version.text).toBe('1.0.0');
    const named = await source.current({ dataset: 'beta', major: 1 });
    expect(named.find('beta', 1)?.origin).toEqual({ location: 's3://lake/_contracts/beta/v1/1.0.0.yaml', sha256: sha256Hex(contractText('beta', '1.0.0')), registered_at: '1970-01-01T00:00:00.000Z' });
    expect(named.find('alpha', 1)?.version.text).toBe('1.1.0');

    await register('alpha', '1.2.0', 48);
    now += 60_000;
    expect((await source.current()).find('alpha', 1)?.version.text).toBe('1.2.0');
  });

  it('reads no contract again while the pointers keep their ETags', async () => {
    const source = registryContracts(store, { refreshMs: 0, clock: () => now });
    await source.current();
    const before = store.reads;
    await source.current();
    await source.current({ dataset: 'alpha', major: 1 });
    expect(store.reads).toBe(before);
  });

  it('keeps the last good version in force when a registered file is not the bytes its pointer names, and says so once', async () => {
    const source = registryContracts(store, { refreshMs: 0, clock: () => now, warn: (text) => warnings.push(text) });
    expect((await source.current()).find('beta', 1)?.version.text).toBe('1.0.0');
    // A writer going around `publish`: a new version object and a pointer whose hash is not its bytes.
    await store.put('_contracts/beta/v1/1.1.0.yaml', contractText('beta', '1.1.0', 64));
    const pointer = { format: 'contract-gate/registry-pointer@1', name: 'beta', major: 1, version: '1.1.0', key: '_contracts/beta/v1/1.1.0.yaml', sha256: sha256Hex('something else'), file: 'beta.v1.yaml', registered_at: '2026-12-01T00:00:00Z' };
    await store.put('_contracts/beta/v1/current.json', JSON.stringify(pointer));
    warnings.length = 0;
    expect((await source.current()).find('beta', 1)?.version.text).toBe('1.0.0');
    expect((await source.current()).find('beta', 1)?.version.text).toBe('1.0.0');
    expect(warnings).toEqual([expect.stringContaining('s3://lake/_contracts/beta/v1/1.1.0.yaml: its bytes are not the ones registered')]);
  });
});
