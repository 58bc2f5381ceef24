import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { s3Notification } from '../../lib/local/s3-notification.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { dropExample } from '../fixtures/gate-fixture.js';
import { publishAttributes } from '../fixtures/loopback-sns.js';
import { startHandlerEnvironment, type HandlerEnvironment } from './handler-environment.js';

let store: ObjectStore;
let handler: (event: unknown) => Promise<unknown>;
let environment: HandlerEnvironment;

beforeAll(async () => {
  // The handler logs a JSON line per marker, as in CloudWatch; here the assertions say what happened.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  ({ store } = environment = await startHandlerEnvironment());
  ({ handler } = await import('../../lambdas/validate/handler.js'));
});

afterAll(async () => {
  vi.restoreAllMocks();
  await environment.stop();
});

async function markerEvent(prefix: string) {
  const key = `${prefix}_READY`;
  const info = await store.head(key);
  return s3Notification({ bucket: 'lake', key, size: info!.size, etag: info!.etag, eventName: 'ObjectCreated:Put', eventTime: new Date().toISOString() });
}

// The examples hold orders of 2026-11-29; the real clock runs in the handler, so freshness fails
// today and the good example is quarantined like the bad one. What matters here is the wiring.
describe('the validate Lambda handler', () => {
  it('takes an S3 event wrapped in SQS and reports no batch item failures', async () => {
    const prefix = 'staging/orders/v1/dt=2026-11-20/';
    await dropExample(store, 'bad', prefix);
    const event = await markerEvent(prefix);
    const result = await handler({ Records: [{ eventSource: 'aws:sqs', messageId: 'm-1', body: JSON.stringify(event) }] });
    expect(result).toEqual({ batchItemFailures: [] });
    const keys: string[] = [];
    for await (const object of store.list('quarantine/orders/v1/dt=2026-11-20/')) keys.push(object.key);
    expect(keys).toHaveLength(5);
    const publish = environment.sns.published.at(-1)!;
    expect(publish.get('Action')).toBe('Publish');
    expect(publish.get('TopicArn')).toBe('arn:aws:sns:eu-west-1:123456789012:gate');
    expect(publishAttributes(publish)).toEqual({
      contract: 'orders', version: 'v1', owner: 'orders-platform', outcome: 'quarantined', severity: 'critical', partition: 'dt=2026-11-20',
      drop: expect.stringMatching(/^[0-9a-f]{14}$/), attempt: expect.stringMatching(/^\d{8}T\d{6}Z-[0-9a-f]{8}$/),
      notice_id: expect.stringMatching(/^_gate\/notices\/orders\/v1\/dt=2026-11-20\/[0-9a-f]{14}\.json$/),
    });
  });

  it('takes a direct S3 event and an EventBridge event with a key that needs URL decoding', async () => {
    const prefix = 'staging/orders/v1/dt=2026-11-21/';
    await dropExample(store, 'bad', prefix);
    expect(await handler(await markerEvent(prefix))).toBeUndefined();
    const other = 'staging/orders/v1/dt=2026-11-22/';
    await dropExample(store, 'bad', other);
    const bridge = { 'detail-type': 'Object Created', source: 'aws.s3', detail: { bucket: { name: 'lake' }, object: { key: `${other}_READY` } } };
    expect(await handler(bridge)).toBeUndefined();
    const partitions = environment.sns.published.map((p) => publishAttributes(p).partition);
    expect(partitions).toContain('dt=2026-11-21');
    expect(partitions).toContain('dt=2026-11-22');
  });

  it('reports the SQS message of a marker it could not process, so only that one is retried', async () => {
    const body = JSON.stringify({ Records: [{ eventSource: 'aws:s3', eventName: 'ObjectCreated:Put', s3: { bucket: { name: 'lake' }, object: { key: 'staging/orders/v1/dt=2026-11-23/_READY' } } }] });
    const saved = process.env.GATE_TOPIC_ARN;
    await dropExample(store, 'bad', 'staging/orders/v1/dt=2026-11-23/');
    await environment.sns.stop();
    const result = await handler({ Records: [{ eventSource: 'aws:sqs', messageId: 'm-9', body }] });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-9' }] });
    process.env.GATE_TOPIC_ARN = saved;
  });
});
