import { describe, expect, it } from 'vitest';
import { decodeS3Key, encodeS3Key, parseStorageEvent } from '../../lib/gate/storage-events.js';

const s3Record = (key: string, eventName = 'ObjectCreated:Put') => ({ eventSource: 'aws:s3', eventName, s3: { bucket: { name: 'lake' }, object: { key } } });

describe('parseStorageEvent', () => {
  it('decodes S3 notification keys: + is a space and %2B a plus', () => {
    const { refs } = parseStorageEvent({ Records: [s3Record('staging/my+data/v1/dt%3D2026-11-30/a%2Bb%C3%BC/_READY')] });
    expect(refs).toEqual([{ bucket: 'lake', key: 'staging/my data/v1/dt=2026-11-30/a+bü/_READY' }]);
  });

  it('unwraps S3 events carried in SQS messages and remembers the message id', () => {
    const event = { Records: [
      { eventSource: 'aws:sqs', messageId: 'm1', body: JSON.stringify({ Records: [s3Record('a/_READY'), s3Record('b/_READY')] }) },
      { eventSource: 'aws:sqs', messageId: 'm2', body: JSON.stringify({ Event: 's3:TestEvent' }) },
    ] };
    const parsed = parseStorageEvent(event);
    expect(parsed.refs).toEqual([{ bucket: 'lake', key: 'a/_READY', messageId: 'm1' }, { bucket: 'lake', key: 'b/_READY', messageId: 'm1' }]);
    expect(parsed.ignored).toEqual(['an s3:TestEvent']);
  });

  it('reads EventBridge Object Created events, directly or through SQS, without URL decoding', () => {
    const bridge = { 'detail-type': 'Object Created', source: 'aws.s3', detail: { bucket: { name: 'lake' }, object: { key: 'a b+c/_READY' } } };
    expect(parseStorageEvent(bridge).refs).toEqual([{ bucket: 'lake', key: 'a b+c/_READY' }]);
    expect(parseStorageEvent({ Records: [{ eventSource: 'aws:sqs', messageId: 'm', body: JSON.stringify(bridge) }] }).refs).toEqual([{ bucket: 'lake', key: 'a b+c/_READY', messageId: 'm' }]);
  });

  it('reports what it ignores instead of throwing', () => {
    const parsed = parseStorageEvent({ Records: [s3Record('x', 'ObjectRemoved:Delete'), s3Record('%E0%A4%A'), { eventSource: 'aws:sqs', messageId: 'm', body: 'not json' }, 7] });
    expect(parsed.refs).toEqual([]);
    expect(parsed.ignored).toEqual([
      'a ObjectRemoved:Delete event',
      'an S3 record whose key is not valid URL encoding: %E0%A4%A',
      'SQS message m whose body is not JSON',
      'a record that is neither S3 nor SQS',
    ]);
    expect(parseStorageEvent('nonsense').ignored).toEqual(['an event that is not a JSON object']);
  });

  it('encodes keys as S3 does, so decoding gives the key back', () => {
    const key = "staging/a b+c/dt=2026-11-30/it's (1)*~ü.parquet";
    expect(encodeS3Key(key)).toBe('staging/a+b%2Bc/dt%3D2026-11-30/it%27s+%281%29*%7E%C3%BC.parquet');
    expect(decodeS3Key(encodeS3Key(key))).toBe(key);
  });
});
