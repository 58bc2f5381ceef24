import { decodeS3Key } from '../lib/gate/storage-events.js';

/**
 * Correlation ids from what Lambda received, so a log line can be found from the message or the
 * request that caused it: the SQS message id (what a redelivery and the dead-letter queue show),
 * else the S3 request id of the PUT (what CloudTrail and S3 access logs show), else the
 * EventBridge event id. Like parseStorageEvent, nothing here trusts the shape, and nothing throws.
 */
export interface RecordCorrelation {
  /** The object key, decoded as parseStorageEvent decodes it, to find a result's record by. */
  readonly key?: string;
  readonly correlationId: string;
  readonly sqsMessageId?: string;
  readonly s3RequestId?: string;
}

export function recordCorrelations(event: unknown): RecordCorrelation[] {
  const found: RecordCorrelation[] = [];
  collect(event, undefined, found);
  return found;
}

/** The invocation's id: its one record's, else (a batch, or no record) undefined, for the request id to stand in. */
export function invocationCorrelationId(event: unknown): string | undefined {
  const ids = new Set(recordCorrelations(event).map((r) => r.correlationId));
  return ids.size === 1 ? [...ids][0] : undefined;
}

/** The correlation of the record that named `key`; the first, if a batch named it twice. */
export function correlationOf(correlations: readonly RecordCorrelation[], key: string): RecordCorrelation | undefined {
  return correlations.find((c) => c.key === key);
}

function collect(event: unknown, sqsMessageId: string | undefined, found: RecordCorrelation[]): void {
  if (!isObject(event)) return;
  if (event['detail-type'] !== undefined && typeof event.id === 'string') return void found.push(eventBridge(event, sqsMessageId));
  if (!Array.isArray(event.Records)) return;
  for (const record of event.Records) {
    if (!isObject(record)) continue;
    if (record.eventSource === 'aws:sqs' && typeof record.messageId === 'string') {
      const before = found.length;
      try {
        collect(JSON.parse(String(record.body)), record.messageId, found);
      } catch {
        // A body that is not JSON names no object; the message is still what the line is about.
      }
      if (found.length === before) found.push({ correlationId: record.messageId, sqsMessageId: record.messageId });
    } else if (isObject(record.s3)) found.push(s3Record(record, sqsMessageId));
  }
}

function s3Record(record: Record<string, unknown>, sqsMessageId: string | undefined): RecordCorrelation {
  const s3 = record.s3 as Record<string, unknown>;
  const raw = isObject(s3.object) && typeof s3.object.key === 'string' ? s3.object.key : undefined;
  const key = raw === undefined ? undefined : decodeS3Key(raw);
  const requestId = isObject(record.responseElements) ? record.responseElements['x-amz-request-id'] : undefined;
  const s3RequestId = typeof requestId === 'string' && requestId ? requestId : undefined;
  return withId({ key, sqsMessageId, s3RequestId });
}

function eventBridge(event: Record<string, unknown>, sqsMessageId: string | undefined): RecordCorrelation {
  const detail = isObject(event.detail) ? event.detail : {};
  const key = isObject(detail.object) && typeof detail.object.key === 'string' ? detail.object.key : undefined;
  const s3RequestId = typeof detail['request-id'] === 'string' ? detail['request-id'] : undefined;
  return withId({ key, sqsMessageId, s3RequestId, eventId: event.id as string });
}

function withId(parts: { key: string | undefined; sqsMessageId: string | undefined; s3RequestId: string | undefined; eventId?: string }): RecordCorrelation {
  const correlationId = parts.sqsMessageId ?? parts.s3RequestId ?? parts.eventId ?? parts.key ?? 'unknown';
  return {
    ...(parts.key !== undefined ? { key: parts.key } : {}),
    correlationId,
    ...(parts.sqsMessageId ? { sqsMessageId: parts.sqsMessageId } : {}),
    ...(parts.s3RequestId ? { s3RequestId: parts.s3RequestId } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
