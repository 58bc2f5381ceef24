import { encodeS3Key } from '../gate/storage-events.js';
import type { ObjectCreatedEvent } from './emulator-protocol.js';
import { bareEtag } from './write-preconditions.js';

let sequence = 0;

/**
 * The S3 event notification Lambda would receive for an emulator event: the real shape
 * (eventVersion 2.1, URL-encoded key, unquoted eTag, a sequencer), so the local gate runs the
 * same parsing code as the deployed one.
 */
export function s3Notification(event: ObjectCreatedEvent): { Records: unknown[] } {
  sequence += 1;
  return {
    Records: [{
      eventVersion: '2.1',
      eventSource: 'aws:s3',
      awsRegion: 'us-east-1',
      eventTime: event.eventTime,
      eventName: event.eventName,
      userIdentity: { principalId: 'contract-gate-local' },
      requestParameters: { sourceIPAddress: '127.0.0.1' },
      responseElements: { 'x-amz-request-id': `LOCAL${sequence.toString(16).toUpperCase().padStart(12, '0')}`, 'x-amz-id-2': 'contract-gate-local' },
      s3: {
        s3SchemaVersion: '1.0',
        configurationId: 'contract-gate-marker',
        bucket: { name: event.bucket, ownerIdentity: { principalId: 'contract-gate-local' }, arn: `arn:aws:s3:::${event.bucket}` },
        object: { key: encodeS3Key(event.key), size: event.size, eTag: bareEtag(event.etag), sequencer: Date.now().toString(16).toUpperCase() + sequence.toString(16).padStart(4, '0') },
      },
    }],
  };
}
