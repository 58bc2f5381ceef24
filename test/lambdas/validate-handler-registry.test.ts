import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { s3Notification } from '../../lib/local/s3-notification.js';
import { registerContract } from '../../lib/registry/register-contract.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { dropExample } from '../fixtures/gate-fixture.js';
import { startHandlerEnvironment, type HandlerEnvironment } from './handler-environment.js';

let store: ObjectStore;
let handler: (event: unknown) => Promise<unknown>;
let environment: HandlerEnvironment;
const ORDERS = readFileSync('contracts/orders.v1.yaml', 'utf8');

beforeAll(async () => {
  // The handler logs a JSON line per marker, as in CloudWatch; here the assertions say what happened.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  ({ store } = environment = await startHandlerEnvironment({ GATE_CONTRACTS_SOURCE: 'registry', GATE_REGISTRY_PREFIX: 'registry/', CONTRACTS_DIR: '/nonexistent' }));
  await registerContract(store, { path: 'contracts/orders.v1.yaml', text: ORDERS }, { prefix: 'registry/', now: 0 });
  ({ handler } = await import('../../lambdas/validate/handler.js'));
});

afterAll(async () => {
  vi.restoreAllMocks();
  await environment.stop();
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
