import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { s3Notification } from '../../lib/local/s3-notification.js';
import { registerContract } from '../../lib/registry/register-contract.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { dropExample } from '../fixtures/gate-fixture.js';
import { startLoopbackSns } from '../fixtures/loopback-sns.js';

let emulator: S3Emulator;
let sns: Awaited<ReturnType<typeof startLoopbackSns>>;
let store: ObjectStore;
let handler: (event: unknown) => Promise<unknown>;
const saved = { ...process.env };
const ORDERS = readFileSync('contracts/orders.v1.yaml', 'utf8');

beforeAll(async () => {
  // The handler logs a JSON line per marker, as in CloudWatch; here the assertions say what happened.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  emulator = await startS3Emulator({ dir: mkdtempSync(join(tmpdir(), 'cg-lambda-registry-')), buckets: ['lake'] });
  sns = await startLoopbackSns();
  store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
  Object.assign(process.env, {
    GATE_BUCKET: 'lake', GATE_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:gate', GATE_CONTRACTS_SOURCE: 'registry', GATE_REGISTRY_PREFIX: 'registry/',
    CONTRACTS_DIR: '/nonexistent', AWS_ENDPOINT_URL_S3: emulator.endpoint, AWS_ENDPOINT_URL_SNS: sns.endpoint,
    AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'eu-west-1',
  });
  await registerContract(store, { path: 'contracts/orders.v1.yaml', text: ORDERS }, { prefix: 'registry/', now: 0 });
  ({ handler } = await import('../../lambdas/validate/handler.js'));
});

afterAll(async () => {
  vi.restoreAllMocks();
  process.env = saved;
  await sns.stop();
  await emulator.stop();
});

async function deliver(prefix: string): Promise<void> {
  const key = `${prefix}_READY`;
  const info = await store.head(key);
  await handler(s3Notification({ bucket: 'lake', key, size: info!.size, etag: info!.etag, eventName: 'ObjectCreated:Put', eventTime: new Date().toISOString() }));
}

async function decisionUnder(prefix: string): Promise<{ outcome: string; contract: unknown }> {
  for await (const object of store.list(prefix)) return JSON.parse(new TextDecoder().decode(await readWhole(store, object.key)));
  throw new Error(`no decision under ${prefix}`);
}

describe('the validate Lambda handler with GATE_CONTRACTS_SOURCE=registry', () => {
  it('judges a drop by the registered contract and records which object it was', async () => {
    await dropExample(store, 'bad', 'staging/orders/v1/dt=2026-11-20/');
    await deliver('staging/orders/v1/dt=2026-11-20/');
    const decision = await decisionUnder('_gate/decisions/orders/v1/dt=2026-11-20/');
    expect(decision.outcome).toBe('quarantine');
    expect(decision.contract).toMatchObject({ name: 'orders', version: '1.2.0', origin: { location: 's3://lake/registry/orders/v1/1.2.0.yaml' } });
  });

  it('enforces a contract registered after the function started on the first drop that names it, with no redeploy', async () => {
    await registerContract(store, { path: 'contracts/returns.v1.yaml', text: ORDERS.replace('name: orders', 'name: returns') }, { prefix: 'registry/', now: 0 });
    await dropExample(store, 'bad', 'staging/returns/v1/dt=2026-11-20/');
    await deliver('staging/returns/v1/dt=2026-11-20/');
    const decision = await decisionUnder('_gate/decisions/returns/v1/dt=2026-11-20/');
    expect(decision.contract).toMatchObject({ name: 'returns', version: '1.2.0', origin: { location: 's3://lake/registry/returns/v1/1.2.0.yaml' } });
  });
});
