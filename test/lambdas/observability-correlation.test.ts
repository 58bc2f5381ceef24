import { describe, expect, it } from 'vitest';
import { correlationOf, invocationCorrelationId, recordCorrelations } from '../../lambdas/observability-correlation.js';
import { runCorrelationId } from '../../lambdas/observability-run.js';

const s3Record = (key: string, requestId?: string) => ({
  eventSource: 'aws:s3', eventName: 'ObjectCreated:Put',
  ...(requestId ? { responseElements: { 'x-amz-request-id': requestId } } : {}),
  s3: { bucket: { name: 'lake' }, object: { key } },
});

describe('correlation ids from the event', () => {
  it('takes the SQS message id of an S3 event wrapped in SQS, and keeps the S3 request id beside it', () => {
    const event = { Records: [{ eventSource: 'aws:sqs', messageId: 'm-1', body: JSON.stringify({ Records: [s3Record('staging/orders/v1/dt%3D2026-11-30/my+file/_READY', 'REQ1')] }) }] };
    expect(recordCorrelations(event)).toEqual([{ key: 'staging/orders/v1/dt=2026-11-30/my file/_READY', correlationId: 'm-1', sqsMessageId: 'm-1', s3RequestId: 'REQ1' }]);
    expect(invocationCorrelationId(event)).toBe('m-1');
  });

  it('takes the S3 request id of a direct S3 event, the same for an EventBridge event, else its event id', () => {
    expect(invocationCorrelationId({ Records: [s3Record('staging/a/v1/dt=1/_READY', 'REQ2')] })).toBe('REQ2');
    const bridge = { id: 'ev-1', 'detail-type': 'Object Created', source: 'aws.s3', detail: { bucket: { name: 'lake' }, object: { key: 'staging/a/v1/dt=1/_READY' }, 'request-id': 'REQ3' } };
    expect(recordCorrelations(bridge)).toEqual([{ key: 'staging/a/v1/dt=1/_READY', correlationId: 'REQ3', s3RequestId: 'REQ3' }]);
    expect(invocationCorrelationId({ ...bridge, detail: { ...bridge.detail, 'request-id': undefined } })).toBe('ev-1');
    expect(invocationCorrelationId({ id: 'sched-1', 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} })).toBe('sched-1');
  });

  it('gives a batch no single id (the request id stands in), and each record its own', () => {
    const event = { Records: ['m-1', 'm-2'].map((id, i) => ({ eventSource: 'aws:sqs', messageId: id, body: JSON.stringify({ Records: [s3Record(`staging/a/v1/dt=${i}/_READY`)] }) })) };
    expect(invocationCorrelationId(event)).toBeUndefined();
    expect(correlationOf(recordCorrelations(event), 'staging/a/v1/dt=1/_READY')?.correlationId).toBe('m-2');
  });

  it('never throws on what it does not know', () => {
    for (const event of [null, 'x', [], { Records: 'x' }, { Records: [null, { eventSource: 'aws:sqs', messageId: 'm', body: '{' }] }]) expect(() => recordCorrelations(event)).not.toThrow();
    expect(recordCorrelations({ Records: [{ eventSource: 'aws:sqs', messageId: 'm', body: '{' }] })).toEqual([{ correlationId: 'm', sqsMessageId: 'm' }]);
  });

  it('follows a fan-out run by its drop tag, from the request key to the decide step', () => {
    expect(runCorrelationId({ bucket: 'lake', requestKey: '_gate/runs/orders/v1/dt=2026-11-20/0a1b2c3d4e5f60/requested.json' })).toBe('0a1b2c3d4e5f60');
    expect(runCorrelationId({ run: { tag: '0a1b2c3d4e5f60' } })).toBe('0a1b2c3d4e5f60');
    expect(runCorrelationId({})).toBeUndefined();
  });
});
