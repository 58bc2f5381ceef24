import { s3Notification } from '../../lib/local/s3-notification.js';
import type { StagedDrop } from './five-file-drop.js';

/**
 * The event Lambda receives for a drop's marker: S3's notification (URL-encoded key, unquoted
 * ETag), or that notification as the body of one SQS message when a messageId is given.
 */
export function markerEvent(bucket: string, drop: StagedDrop, messageId?: string): unknown {
  const notification = s3Notification({
    bucket,
    key: drop.marker,
    size: Buffer.byteLength(drop.markerBody),
    etag: drop.markerEtag.replaceAll('"', ''),
    eventName: 'ObjectCreated:Put',
    eventTime: new Date().toISOString(),
  });
  if (messageId === undefined) return notification;
  return { Records: [{ eventSource: 'aws:sqs', messageId, receiptHandle: messageId, body: JSON.stringify(notification) }] };
}
