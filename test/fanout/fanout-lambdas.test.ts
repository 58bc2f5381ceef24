import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FanoutItem } from '../../lib/fanout/fanout-layout.js';
import type { FanoutPlan } from '../../lib/fanout/plan-fanout.js';
import { encodeS3Key } from '../../lib/gate/storage-events.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { dropExample } from '../fixtures/gate-fixture.js';
import { publishAttributes, startLoopbackSns } from '../fixtures/loopback-sns.js';
import { listKeys } from './fanout-fixture.js';

type Handler = (event: never, context?: { getRemainingTimeInMillis(): number }) => Promise<unknown>;

let emulator: S3Emulator;
let sns: Awaited<ReturnType<typeof startLoopbackSns>>;
let store: ObjectStore;
const handlers: Record<'validate' | 'plan' | 'mapFile' | 'reduceShard' | 'decide', Handler> = {} as never;
const saved = { ...process.env };
const lambda = { getRemainingTimeInMillis: () => 600_000 };

beforeAll(async () => {
  emulator = await startS3Emulator({ dir: mkdtempSync(join(tmpdir(), 'cg-fanout-lambda-')), buckets: ['lake'] });
  sns = await startLoopbackSns();
  store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
  Object.assign(process.env, {
    GATE_BUCKET: 'lake', GATE_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:gate', CONTRACTS_DIR: 'contracts',
    GATE_FANOUT_MAX_FILES: '1', GATE_FANOUT_MAX_BYTES: String(1024 ** 3),
    AWS_ENDPOINT_URL_S3: emulator.endpoint, AWS_ENDPOINT_URL_SNS: sns.endpoint,
    AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'eu-west-1',
  });
  handlers.validate = (await import('../../lambdas/validate/handler.js')).handler as Handler;
  handlers.plan = (await import('../../lambdas/fanout/plan.js')).handler as Handler;
  handlers.mapFile = (await import('../../lambdas/fanout/map-file.js')).handler as Handler;
  handlers.reduceShard = (await import('../../lambdas/fanout/reduce-shard.js')).handler as Handler;
  handlers.decide = (await import('../../lambdas/fanout/decide.js')).handler as Handler;
});

afterAll(async () => {
  process.env = saved;
  await sns?.stop();
  await emulator?.stop();
});

const call = <T>(name: keyof typeof handlers, event: unknown) => handlers[name](event as never, lambda) as Promise<T>;

describe('the fan-out Lambdas', () => {
  it('take the validate function\'s hand-off through the state machine\'s payloads to one notice', async () => {
    const prefix = 'staging/orders/v1/dt=2026-11-20/';
    await dropExample(store, 'bad', prefix);
    const bridge = { 'detail-type': 'Object Created', source: 'aws.s3', detail: { bucket: { name: 'lake' }, object: { key: `${prefix}_READY` } } };
    expect(await call('validate', bridge)).toBeUndefined();
    const [requestKey] = await listKeys(store, '_gate/runs/orders/v1/dt=2026-11-20/');
    expect(requestKey).toMatch(/requested\.json$/);
    // As the EventBridge rule's input transformer passes it; the key may arrive URL-encoded.
    const plan = await call<FanoutPlan & { bucket: string }>('plan', { bucket: 'lake', requestKey: encodeS3Key(requestKey!) });
    expect(plan).toMatchObject({ bucket: 'lake', files: 2, skipToDecide: false, itemsKey: requestKey!.replace('requested.json', 'items.json') });
    expect(plan.shards).toHaveLength(16);
    const items = JSON.parse(new TextDecoder().decode(await store.read(plan.itemsKey, 0, (await store.head(plan.itemsKey))!.size))) as FanoutItem[];
    for (const item of items) expect(await call('mapFile', { run: plan.run, item })).toMatchObject({ status: 'checked', fileIndex: item.index, rows: 600 });
    for (const shard of plan.shards) expect(await call('reduceShard', { run: plan.run, shard })).toMatchObject({ status: 'reduced' });
    expect(await call('decide', { run: plan.run })).toMatchObject({ status: 'quarantined', summary: expect.stringMatching(/^failed: /) });
    const [report] = (await listKeys(store, 'quarantine/orders/v1/dt=2026-11-20/')).filter((k) => k.endsWith('_REPORT.json'));
    const rules = (JSON.parse(new TextDecoder().decode(await store.read(report!, 0, (await store.head(report!))!.size))) as { violations: { rule: string }[] }).violations.map((v) => v.rule);
    expect(rules).toEqual(expect.arrayContaining(['required', 'enum', 'min', 'pattern', 'not_in_future', 'grain']));
    expect(sns.published).toHaveLength(1);
    expect(publishAttributes(sns.published[0]!)).toMatchObject({ contract: 'orders', outcome: 'quarantined', partition: 'dt=2026-11-20' });
    expect(await listKeys(store, prefix)).toEqual([]);
  });

  it('refuse a payload that is not theirs', async () => {
    await expect(call('plan', { bucket: 'elsewhere', requestKey: 'x' })).rejects.toThrow('expected { bucket: "lake", requestKey }');
    await expect(call('mapFile', { run: { tag: 'x' }, item: {} })).rejects.toThrow('not a fan-out run');
    await expect(call('reduceShard', { run: {}, shard: { keySet: 'a' } })).rejects.toThrow('expected shard: { keySet, shard }');
  });
});
