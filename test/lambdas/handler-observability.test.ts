import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { s3Notification } from '../../lib/local/s3-notification.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { dropExample } from '../fixtures/gate-fixture.js';
import { startHandlerEnvironment, type HandlerEnvironment } from './handler-environment.js';

// What CloudWatch would get: the JSON lines the functions write to stdout and stderr. Logs and
// metrics are off for the suite (vitest.config.ts); this file turns them on and reads them.
type Line = Record<string, unknown> & { _aws?: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] } };

let store: ObjectStore;
let validate: typeof import('../../lambdas/validate/handler.js').handler;
let probe: typeof import('../../lambdas/probe/handler.js').handler;
let lines: Line[] = [];
let environment: HandlerEnvironment;
const context = (id: string) => ({ awsRequestId: id, functionName: 'gate-validate', functionVersion: '$LATEST', memoryLimitInMB: '1769', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:gate-validate', getRemainingTimeInMillis: () => 600_000 });

function capture(stream: NodeJS.WriteStream): void {
  vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const text of String(chunk).split('\n').filter((l) => l.startsWith('{'))) lines.push(JSON.parse(text) as Line);
    return true;
  });
}

beforeAll(async () => {
  ({ store } = environment = await startHandlerEnvironment({ POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_SERVICE_NAME: 'contract-gate', POWERTOOLS_METRICS_NAMESPACE: 'ContractGate', GATE_NAME: 'lake-prod' }));
  ({ handler: validate } = await import('../../lambdas/validate/handler.js'));
  ({ handler: probe } = await import('../../lambdas/probe/handler.js'));
  (await import('../../lambdas/observability.js')).logger.setLogLevel('INFO');
});

beforeEach(() => {
  lines = [];
  capture(process.stdout);
  capture(process.stderr);
  return () => vi.restoreAllMocks();
});

afterAll(async () => {
  await environment.stop();
});

const emf = (metric: string) => lines.filter((l) => l._aws?.CloudWatchMetrics.some((m) => m.Metrics.some((x) => x.Name === metric)));

async function sqsEvent(prefix: string, messageId: string) {
  const key = `${prefix}_READY`;
  const info = await store.head(key);
  const s3 = s3Notification({ bucket: 'lake', key, size: info!.size, etag: info!.etag, eventName: 'ObjectCreated:Put', eventTime: new Date().toISOString() });
  return { Records: [{ eventSource: 'aws:sqs', messageId, body: JSON.stringify(s3) }] };
}

describe('the validate function, as CloudWatch sees it', () => {
  it('publishes DropsQuarantined = 1 for orders, per contract and for the whole gate, and logs the drop with its ids and gate', async () => {
    const prefix = 'staging/orders/v1/dt=2026-11-20/';
    await dropExample(store, 'bad', prefix);
    const event = await sqsEvent(prefix, 'm-obs-1');
    expect(await validate(event, context('req-obs-1'))).toEqual({ batchItemFailures: [] });

    const [line, ...others] = emf('DropsQuarantined');
    expect(others).toEqual([]);
    expect(line!._aws!.CloudWatchMetrics).toEqual([{ Namespace: 'ContractGate', Dimensions: [['service', 'Gate', 'contract'], ['service', 'Gate']], Metrics: expect.arrayContaining([{ Name: 'DropsQuarantined', Unit: 'Count' }, { Name: 'RowsChecked', Unit: 'Count' }, { Name: 'BytesRead', Unit: 'Bytes' }, { Name: 'ValidationSeconds', Unit: 'Seconds' }, { Name: 'MarkerToVerdictSeconds', Unit: 'Seconds' }]) }]);
    expect(line).toMatchObject({ service: 'contract-gate', Gate: 'lake-prod', contract: 'orders', DropsQuarantined: 1, RowsChecked: 1200 });
    expect(line!.BytesRead).toBeGreaterThan(0);
    expect(line!.ValidationSeconds).toBeGreaterThanOrEqual(0);
    expect(line!.DropsRefused).toBeUndefined();
    expect(line!.DropsPublished).toBeUndefined();

    const handled = lines.find((l) => l.message === 'marker handled');
    expect(handled).toMatchObject({
      level: 'INFO', service: 'contract-gate', gate: 'lake-prod', function_request_id: 'req-obs-1', function_name: 'gate-validate', correlation_id: 'm-obs-1', sqs_message_id: 'm-obs-1',
      s3_request_id: expect.stringMatching(/^LOCAL/), dataset: 'orders', major: 1, partition: 'dt=2026-11-20', marker_key: `${prefix}_READY`,
      drop: expect.stringMatching(/^[0-9a-f]{14}$/), attempt: expect.stringMatching(/^\d{8}T\d{6}Z-[0-9a-f]{8}$/), status: 'quarantined',
    });
    // Every line the invocation wrote carries its request id and a correlation id.
    for (const log of lines.filter((l) => !l._aws)) expect(log).toMatchObject({ function_request_id: 'req-obs-1', correlation_id: expect.any(String) });

    // A redelivery of the same message finds the drop carried out: a line, and no second count.
    lines = [];
    await validate(event, context('req-obs-2'));
    expect(emf('DropsQuarantined')).toEqual([]);
    expect(lines.find((l) => l.message === 'marker handled')).toMatchObject({ function_request_id: 'req-obs-2', correlation_id: 'm-obs-1', partition: 'dt=2026-11-20', status: 'nothing_to_do' });
  });

  it('counts a drop no contract covers as quarantined and refused, under the dataset name it came with', async () => {
    const prefix = 'staging/Orders/v1/dt=2026-11-21/';
    await dropExample(store, 'bad', prefix);
    await validate(await sqsEvent(prefix, 'm-obs-2'), context('req-obs-3'));
    const [line, ...others] = emf('DropsRefused');
    expect(others).toEqual([]);
    expect(line).toMatchObject({ service: 'contract-gate', Gate: 'lake-prod', contract: 'Orders', DropsQuarantined: 1, DropsRefused: 1 });
    expect(line!.RowsChecked).toBeUndefined();
  });

  it('starts the next invocation without the keys of the last one', async () => {
    await validate({ Event: 's3:TestEvent' }, context('req-obs-4'));
    const log = lines.find((l) => l.message === 'event record ignored');
    // No record names an id, so the request id is the correlation id; no drop's keys linger.
    expect(log).toMatchObject({ reason: 'an s3:TestEvent', function_request_id: 'req-obs-4', correlation_id: 'req-obs-4' });
    expect(log?.partition).toBeUndefined();
    expect(log?.sqs_message_id).toBeUndefined();
  });
});

describe('the probe function, as CloudWatch sees it', () => {
  it('publishes ProbeChecked for the gate, and ProbeMisses for each contract it probed', async () => {
    const result = await probe({ id: 'sched-1', 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} }, context('req-probe-1'));
    const [checked] = emf('ProbeChecked');
    expect(checked!._aws!.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'ContractGate', Dimensions: [['service', 'Gate']] });
    expect(checked).toMatchObject({ service: 'contract-gate', Gate: 'lake-prod', ProbeChecked: result.checked });
    const misses = emf('ProbeMisses');
    expect(misses.map((l) => l.contract)).toEqual(result.checked > 0 ? ['orders'] : []);
    if (result.checked > 0) expect(misses[0]).toMatchObject({ ProbeMisses: result.missed, Gate: 'lake-prod', _aws: { CloudWatchMetrics: [{ Dimensions: [['service', 'Gate', 'contract'], ['service', 'Gate']] }] } });
    for (const log of lines.filter((l) => l.message === 'partition probed')) expect(log).toMatchObject({ function_request_id: 'req-probe-1', correlation_id: 'sched-1' });
  });
});

describe('metrics without GATE_NAME (a local run)', () => {
  it('leave the Gate dimension out rather than invent one', async () => {
    const { publishContractMetrics, publishServiceMetrics } = await import('../../lambdas/observability.js');
    vi.stubEnv('GATE_NAME', '');
    try {
      publishServiceMetrics([{ name: 'ProbeChecked', unit: 'Count', value: 2 }]);
      publishContractMetrics({ contract: 'orders', metrics: [{ name: 'DropsPublished', unit: 'Count', value: 1 }] });
    } finally {
      vi.unstubAllEnvs();
    }
    expect(emf('ProbeChecked')[0]!._aws!.CloudWatchMetrics[0]!.Dimensions).toEqual([['service']]);
    expect(emf('DropsPublished')[0]!._aws!.CloudWatchMetrics[0]!.Dimensions).toEqual([['service', 'contract'], ['service']]);
    expect(emf('DropsPublished')[0]!.Gate).toBeUndefined();
  });
});
