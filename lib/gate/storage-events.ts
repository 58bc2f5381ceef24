/**
 * Reads the object keys out of what Lambda receives: an S3 event notification, the same wrapped
 * in SQS messages, or an EventBridge "Object Created" event (also possibly via SQS). Nothing here
 * trusts the shape: anything unrecognised is reported, never thrown.
 */
export interface ObjectRef {
  readonly bucket: string;
  /** The raw object key, decoded. */
  readonly key: string;
  /** The SQS message that carried it, for partial batch failure reports. */
  readonly messageId?: string;
}

export interface ParsedEvent {
  readonly refs: readonly ObjectRef[];
  /** Records that named no object (test events, other sources), with why. */
  readonly ignored: readonly string[];
}

export function parseStorageEvent(event: unknown): ParsedEvent {
  const refs: ObjectRef[] = [];
  const ignored: string[] = [];
  collect(event, undefined, refs, ignored);
  return { refs, ignored };
}

function collect(event: unknown, messageId: string | undefined, refs: ObjectRef[], ignored: string[]): void {
  if (!isObject(event)) return void ignored.push('an event that is not a JSON object');
  if (event['detail-type'] === 'Object Created' && isObject(event.detail)) return collectEventBridge(event.detail, messageId, refs, ignored);
  if (event.Event === 's3:TestEvent') return void ignored.push('an s3:TestEvent');
  if (!Array.isArray(event.Records)) return void ignored.push(`an event of unknown shape (keys: ${Object.keys(event).slice(0, 5).join(', ')})`);
  for (const record of event.Records) {
    if (isObject(record) && record.eventSource === 'aws:sqs') collectSqs(record, refs, ignored);
    else if (isObject(record) && isObject(record.s3)) collectS3(record, messageId, refs, ignored);
    else ignored.push('a record that is neither S3 nor SQS');
  }
}

function collectSqs(record: Record<string, unknown>, refs: ObjectRef[], ignored: string[]): void {
  const messageId = typeof record.messageId === 'string' ? record.messageId : undefined;
  try {
    collect(JSON.parse(String(record.body)), messageId, refs, ignored);
  } catch {
    ignored.push(`SQS message ${messageId ?? '?'} whose body is not JSON`);
  }
}

function collectS3(record: Record<string, unknown>, messageId: string | undefined, refs: ObjectRef[], ignored: string[]): void {
  const s3 = record.s3 as Record<string, unknown>;
  const bucket = isObject(s3.bucket) ? s3.bucket.name : undefined;
  const key = isObject(s3.object) ? s3.object.key : undefined;
  if (typeof record.eventName === 'string' && !record.eventName.startsWith('ObjectCreated:')) return void ignored.push(`a ${record.eventName} event`);
  if (typeof bucket !== 'string' || typeof key !== 'string') return void ignored.push('an S3 record without bucket name or object key');
  const decoded = decodeS3Key(key);
  if (decoded === undefined) return void ignored.push(`an S3 record whose key is not valid URL encoding: ${key.slice(0, 200)}`);
  refs.push({ bucket, key: decoded, ...(messageId ? { messageId } : {}) });
}

function collectEventBridge(detail: Record<string, unknown>, messageId: string | undefined, refs: ObjectRef[], ignored: string[]): void {
  const bucket = isObject(detail.bucket) ? detail.bucket.name : undefined;
  const key = isObject(detail.object) ? detail.object.key : undefined;
  // EventBridge carries the key as it is; only S3 notifications URL-encode it.
  if (typeof bucket === 'string' && typeof key === 'string') refs.push({ bucket, key, ...(messageId ? { messageId } : {}) });
  else ignored.push('an EventBridge Object Created event without bucket name or object key');
}

/** S3 notifications form-encode keys: `+` is a space, `%2B` a plus. */
export function decodeS3Key(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/** The encoding S3 applies to keys in notifications: form encoding that keeps `/`. */
export function encodeS3Key(key: string): string {
  return encodeURIComponent(key)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%2F', '/')
    .replaceAll('%20', '+');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
