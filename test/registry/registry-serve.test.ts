import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../lib/cli/serve-command.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { runCaptured } from '../cli/run-captured.js';

const GOOD = 'contracts/examples/orders/good/dt=2026-11-29';
const ORDERS = readFileSync('contracts/orders.v1.yaml', 'utf8');

/** A producer's own repository: a contract for a new dataset, orders_eu, which the gate has never seen. */
function producerContract(dir: string, version: string, edit: (yaml: string) => string = (y) => y): string {
  const path = join(dir, 'orders_eu.v1.yaml');
  writeFileSync(path, edit(ORDERS.replace('name: orders', 'name: orders_eu').replace('version: 1.2.0', `version: ${version}`)));
  return path;
}
const withoutCancelled = (yaml: string) => yaml.replace('enum: [placed, paid, cancelled]', 'enum: [placed, paid]');
const deprecated = (yaml: string) => yaml.replace('status: active', 'status: deprecated\nsunset: 2027-01-31');
/** What publish asks of orders_eu v2 beside its file: the changes, the window and v1's sunset. */
const V2_MIGRATION = `# orders_eu v1 to v2

## What changed and why

- status no longer takes cancelled: cancellations move to a dataset of their own.

## Affected downstream models

- stg_orders_eu

## Deprecation timeline

- 2026-12-01: the window opens; 2027-01-31: v1 sunset.

## Action required from consumers

- Stop filtering on status = cancelled.
`;

/** The one quarantine attempt folder under a partition's quarantine prefix. */
async function onlyAttempt(store: ObjectStore, prefix: string): Promise<string> {
  const attempts = new Set<string>();
  for await (const object of store.list(prefix)) attempts.add(object.key.slice(0, object.key.indexOf('/', prefix.length) + 1));
  expect(attempts.size).toBe(1);
  return [...attempts][0]!;
}

/** Polls until the gate has carried a drop out: it runs on its own, after the marker's event. */
async function eventually<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await runCaptured(...args);
  return { code, out: stderr + stdout };
}

describe('a gate that reads its contracts from the registry on its bucket (serve)', () => {
  const stop = new AbortController();
  let served: Promise<number>;
  let printed = '';
  let endpoint = '';
  let store: ObjectStore;
  const repo = mkdtempSync(join(tmpdir(), 'cg-producer-'));

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-registry-serve-'));
    const contracts = join(dir, 'contracts');
    cpSync('contracts/orders.v1.yaml', join(contracts, 'orders.v1.yaml'), { recursive: true });
    const io = { stdout: (t: string) => void (printed += t), stderr: (t: string) => void (printed += t), isTTY: false };
    served = serveCommand(['--port', '0', '--dir', join(dir, 'lake'), '--contracts', contracts, '--now', '2026-11-30T05:00:00Z'], io, stop.signal);
    while (!/local gate on (http:\/\/127\.0\.0\.1:\d+)/.test(printed)) await new Promise((resolve) => setTimeout(resolve, 20));
    endpoint = /local gate on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)![1]!;
    store = s3ObjectStore({ client: createS3Client({ endpoint }), bucket: 'lake' });
  });
  afterAll(async () => {
    stop.abort();
    expect(await served).toBe(0);
  });

  const drop = (contract: string, ...more: string[]) => cli(['drop', '--contract', contract, GOOD, '--to', 's3://lake', '--endpoint', endpoint, ...more]);
  const publish = (contract: string) => cli(['publish', contract, '--to', 's3://lake', '--endpoint', endpoint]);

  it('published the --contracts directory into the registry at start', async () => {
    expect(printed).toContain('registry: registered  orders 1.2.0 from');
    const pointer = JSON.parse(new TextDecoder().decode(await readWhole(store, '_contracts/orders/v1/current.json')));
    expect(pointer).toMatchObject({ name: 'orders', major: 1, version: '1.2.0', key: '_contracts/orders/v1/1.2.0.yaml' });
  });

  it('refuses a drop for a dataset nobody registered, then enforces its contract on the next drop once published', async () => {
    const unchecked = await drop(producerContract(repo, '1.0.0'), '--registry', 'none');
    expect(unchecked.code).toBe(1);
    expect(unchecked.out).toContain('no_contract');
    // Without --registry none, drop itself asks the registry first and uploads nothing.
    const before = await drop(producerContract(repo, '1.0.0'));
    expect(before.code).toBe(2);
    expect(before.out).toContain('no contract is registered for orders_eu v1 on s3://lake');

    const published = await publish(producerContract(repo, '1.0.0'));
    expect(published.out).toContain('registered  orders_eu 1.0.0 from');
    expect(published.code).toBe(0);
    const after = await drop(producerContract(repo, '1.0.0'));
    expect(after.out).toMatch(/published/i);
    expect(after.code).toBe(0);
    const success = JSON.parse(new TextDecoder().decode(await readWhole(store, 'published/orders_eu/v1/dt=2026-11-29/_SUCCESS')));
    expect(success.contract).toMatchObject({ name: 'orders_eu', version: '1.0.0', origin: { location: 's3://lake/_contracts/orders_eu/v1/1.0.0.yaml' } });
  });

  it('refuses a breaking edit that does not bump the major version, and keeps the version in force', async () => {
    const refused = await publish(producerContract(repo, '1.0.1', (y) => y.replace(/^ {4}- \{ name: coupon.*\n/m, '')));
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('REFUSED');
    expect(refused.out).toMatch(/breaking\s+column_removed coupon/);
    expect(refused.out).toContain('needs a major bump: a new major version is a new file orders_eu.v2.yaml');
    const pointer = JSON.parse(new TextDecoder().decode(await readWhole(store, '_contracts/orders_eu/v1/current.json')));
    expect(pointer.version).toBe('1.0.0');
    const dropped = await drop(producerContract(repo, '1.0.1', (y) => y.replace(/^ {4}- \{ name: coupon.*\n/m, '')));
    expect(dropped.out).toContain('note: the gate enforces orders_eu 1.0.0, the version registered on the bucket; 1.0.1 in your file is not registered');
  });

  it('refuses a new major version outside a file of its own', async () => {
    const inOldFile = await publish(producerContract(repo, '2.0.0'));
    expect(inOldFile.code).toBe(1);
    expect(inOldFile.out).toContain('the file is named for major version 1 but declares 2.0.0; a new major version is a new file');
    const unversioned = join(repo, 'orders_eu.yaml');
    writeFileSync(unversioned, readFileSync(producerContract(repo, '2.0.0'), 'utf8'));
    const refused = await publish(unversioned);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('orders_eu v1 is registered: a new major version is a new file, orders_eu.v2.yaml, beside the old one');
  });

  it('publishes a quarantined batch redriven after a fixed contract was registered, judged by the fixed version', async () => {
    const v2 = (version: string, edit: (yaml: string) => string) => {
      const path = join(repo, 'orders_eu.v2.yaml');
      writeFileSync(path, edit(readFileSync(producerContract(repo, version), 'utf8')));
      return path;
    };
    // A new major: v1 deprecated first, and the migration document in migrations/ beside the files.
    expect((await publish(producerContract(repo, '1.1.0', deprecated))).code).toBe(0);
    mkdirSync(join(repo, 'migrations'), { recursive: true });
    writeFileSync(join(repo, 'migrations', 'orders_eu_v1_to_v2.md'), V2_MIGRATION);
    expect((await publish(v2('2.0.0', withoutCancelled))).code).toBe(0);
    const quarantined = await drop(v2('2.0.0', withoutCancelled));
    expect(quarantined.code).toBe(1);
    expect(quarantined.out).toContain('enum');
    const fixed = await publish(v2('2.1.0', (y) => y));
    expect(fixed.out).toContain('registered  orders_eu 2.1.0');
    expect(fixed.code).toBe(0);

    const attempt = await onlyAttempt(store, 'quarantine/orders_eu/v2/dt=2026-11-29/');
    const redriven = await cli(['redrive', `s3://lake/${attempt}`, '--endpoint', endpoint]);
    expect(redriven.code).toBe(0);
    const success = await eventually(() => readWhole(store, 'published/orders_eu/v2/dt=2026-11-29/_SUCCESS'));
    expect(JSON.parse(new TextDecoder().decode(success)).contract).toMatchObject({ name: 'orders_eu', version: '2.1.0' });
  });

  it('treats publishing an identical file again as a no-op', async () => {
    const again = await publish(producerContract(repo, '1.0.0'));
    expect(again.code).toBe(0);
    expect(again.out).toContain('unchanged   orders_eu 1.0.0');
  });
});
