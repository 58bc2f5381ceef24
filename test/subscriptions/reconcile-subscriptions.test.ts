import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SNSClient } from '@aws-sdk/client-sns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';
import { registerContract } from '../../lib/registry/register-contract.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { reconcileSubscriptions, type ReconcileReport } from '../../lib/subscriptions/reconcile-subscriptions.js';
import { snsTopicSubscriptions } from '../../lib/subscriptions/sns-topic-subscriptions.js';
import { startLoopbackSnsTopic, type LoopbackSnsTopic, type LoopbackSnsTopicOptions } from '../fixtures/loopback-sns-topic.js';
import { BUCKET, startEmulatorFixture, type EmulatorFixture } from '../local/emulator-fixture.js';

// The real S3Client against the S3 emulator, the real SNSClient against a stateful loopback topic.
const ORDERS = readFileSync(join(PROJECT_ROOT, 'contracts/orders.v1.yaml'), 'utf8');
const ALERTS = 'gate-alerts@example.com';
const BY_HAND = 'bi-analyst@example.com';

function payments(version: string, notify: readonly string[]): string {
  return [
    'name: payments',
    `version: ${version}`,
    `owner: { team: payments, notify: [${notify.join(', ')}] }`,
    'produces: { format: parquet, partition: "dt={ds}" }',
    'schema:',
    '  grain: [payment_id]',
    '  columns:',
    '    - { name: payment_id, type: string, required: true }',
  ].join('\n');
}

let s3: EmulatorFixture;
let store: ObjectStore;
let sns: LoopbackSnsTopic;
let client: SNSClient;

async function startTopic(options: LoopbackSnsTopicOptions = {}): Promise<void> {
  sns = await startLoopbackSnsTopic(options);
  client = new SNSClient({ endpoint: sns.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' } });
  // As the stack leaves it: the alert address unfiltered (CloudFormation's), and one made by hand.
  sns.addConfirmed(ALERTS);
  sns.addConfirmed(BY_HAND, { contract: ['orders'], outcome: ['quarantined'] });
}

beforeEach(async () => {
  s3 = await startEmulatorFixture();
  store = s3ObjectStore({ client: s3.client, bucket: BUCKET });
});
afterEach(async () => {
  client?.destroy();
  await sns?.stop();
  await s3?.close();
});

async function publish(path: string, text: string): Promise<void> {
  const outcome = await registerContract(store, { path, text }, { now: Date.parse('2026-12-01T08:00:00Z') });
  expect(outcome.status, outcome.reason).toBe('registered');
}

function reconcile(): Promise<ReconcileReport> {
  const topic = snsTopicSubscriptions({ topicArn: sns.topicArn, client });
  return reconcileSubscriptions({ store, topic, topicArn: sns.topicArn, statePrefix: '_gate/', now: Date.parse('2026-12-01T09:00:00Z') });
}

/** Endpoint → filter policy (or `unfiltered`), and which are pending. */
function topicNow(): Record<string, string> {
  return Object.fromEntries(sns.subscriptions().map((s) => [s.endpoint, `${s.filterPolicy ?? 'unfiltered'}${s.pending ? ' (pending)' : ''}`]));
}

const outcomes = (report: ReconcileReport) => report.results.map((r) => `${r.kind} ${r.email} ${r.contracts.join(',')}: ${r.outcome}`);

/** The SNS calls of one run but the listing. */
async function changesOf(run: () => Promise<unknown>): Promise<string[]> {
  const before = sns.actions.length;
  await run();
  return sns.actions.slice(before).filter((a) => a !== 'ListSubscriptionsByTopic');
}

describe('reconcileSubscriptions', () => {
  it('follows the registry: subscribes, widens, narrows and unsubscribes what it made, and nothing else', async () => {
    await startTopic();
    const untouched = { [ALERTS]: 'unfiltered', [BY_HAND]: '{"contract":["orders"],"outcome":["quarantined"]}' };

    await publish('contracts/orders.v1.yaml', ORDERS);
    expect(outcomes(await reconcile())).toEqual(['subscribe orders-oncall@example.com orders: done']);
    expect(topicNow()).toEqual({ ...untouched, 'orders-oncall@example.com': '{"contract":["orders"]} (pending)' });

    await publish('contracts/payments.v1.yaml', payments('1.0.0', ['payments-team@example.com', 'orders-oncall@example.com', 'shared-analytics@example.com']));
    expect(outcomes(await reconcile())).toEqual([
      'set-filter orders-oncall@example.com orders,payments: done',
      'subscribe payments-team@example.com payments: done',
      'subscribe shared-analytics@example.com payments: done',
    ]);
    expect(topicNow()).toEqual({
      ...untouched,
      'orders-oncall@example.com': '{"contract":["orders","payments"]} (pending)',
      'payments-team@example.com': '{"contract":["payments"]} (pending)',
      'shared-analytics@example.com': '{"contract":["payments"]} (pending)',
    });

    for (const email of ['orders-oncall@example.com', 'payments-team@example.com', 'shared-analytics@example.com']) sns.confirm(email);
    await publish('contracts/payments.v1.yaml', payments('1.1.0', ['payments-team@example.com']));
    const third = await reconcile();
    expect(outcomes(third)).toEqual(['set-filter orders-oncall@example.com orders: done', 'unsubscribe shared-analytics@example.com payments: done']);
    expect(third.unmanaged).toEqual([]);
    expect(topicNow()).toEqual({ ...untouched, 'orders-oncall@example.com': '{"contract":["orders"]}', 'payments-team@example.com': '{"contract":["payments"]}' });

    // The record names only what the reconciler made.
    const record = JSON.parse((await s3.read('_gate/subscriptions.json')).toString('utf8')) as { topic: string; subscriptions: { email: string; contracts: string[] }[] };
    expect(record.topic).toBe(sns.topicArn);
    expect(record.subscriptions.map((s) => `${s.email} ${s.contracts.join(',')}`)).toEqual(['orders-oncall@example.com orders', 'payments-team@example.com payments']);

    // Twice: nothing to do, nothing written.
    let again: ReconcileReport | undefined;
    expect(await changesOf(async () => (again = await reconcile()))).toEqual([]);
    expect(again).toMatchObject({ contracts: 2, results: [], stateWritten: false, problems: [] });
  });

  it('leaves alone an address a contract names that is already subscribed by someone else', async () => {
    await startTopic();
    await publish('contracts/payments.v1.yaml', payments('1.0.0', [ALERTS, BY_HAND.toUpperCase(), 'payments-team@example.com']));
    const report = await reconcile();
    expect(outcomes(report)).toEqual(['subscribe payments-team@example.com payments: done']);
    expect(report.unmanaged).toEqual([BY_HAND.toUpperCase(), ALERTS]);
    expect(topicNow()[ALERTS]).toBe('unfiltered');
  });

  it('removes a pending subscription once it is confirmed, since SNS cannot delete it before', async () => {
    await startTopic();
    await publish('contracts/payments.v1.yaml', payments('1.0.0', ['payments-team@example.com', 'temp@example.com']));
    await reconcile();
    await publish('contracts/payments.v1.yaml', payments('1.0.1', ['payments-team@example.com']));
    expect(outcomes(await reconcile())).toEqual(['unsubscribe temp@example.com payments: deferred']);
    expect(topicNow()['temp@example.com']).toBe('{"contract":["payments"]} (pending)');
    sns.confirm('temp@example.com');
    expect(outcomes(await reconcile())).toEqual(['unsubscribe temp@example.com payments: done']);
    expect(topicNow()['temp@example.com']).toBeUndefined();
  });

  it('widens a pending subscription on a later run when SNS refuses to change it before confirmation', async () => {
    await startTopic({ refusePendingAttributes: true });
    await publish('contracts/orders.v1.yaml', ORDERS);
    await reconcile();
    await publish('contracts/payments.v1.yaml', payments('1.0.0', ['orders-oncall@example.com']));
    expect(outcomes(await reconcile())).toEqual(['set-filter orders-oncall@example.com orders,payments: deferred']);
    sns.confirm('orders-oncall@example.com');
    expect(outcomes(await reconcile())).toEqual(['set-filter orders-oncall@example.com orders,payments: done']);
    expect(topicNow()['orders-oncall@example.com']).toBe('{"contract":["orders","payments"]}');
  });

  it('does not ask again an owner who unsubscribed, until a contract newly names them', async () => {
    await startTopic();
    await publish('contracts/orders.v1.yaml', ORDERS);
    await reconcile();
    sns.remove('orders-oncall@example.com');
    expect(await changesOf(reconcile)).toEqual([]);
    await publish('contracts/payments.v1.yaml', payments('1.0.0', ['orders-oncall@example.com']));
    expect(outcomes(await reconcile())).toEqual(['subscribe orders-oncall@example.com orders,payments: done']);
  });

  it('removes nobody while a registered contract does not load', async () => {
    await startTopic();
    await publish('contracts/payments.v1.yaml', payments('1.0.0', ['payments-team@example.com', 'temp@example.com']));
    await reconcile();
    sns.confirm('temp@example.com');
    await publish('contracts/payments.v1.yaml', payments('1.0.1', ['payments-team@example.com']));
    await s3.put('_contracts/broken/v1/current.json', 'not a pointer');
    const report = await reconcile();
    expect(report.problems).toHaveLength(1);
    expect(report.results).toEqual([]);
    expect(topicNow()['temp@example.com']).toBe('{"contract":["payments"]}');
  });
});
