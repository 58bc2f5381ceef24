import { AsyncLocalStorage } from 'node:async_hooks';
import { errorCode } from '../storage/fs-errors.js';
import type { ObjectCreatedEvent } from './emulator-protocol.js';
import type { S3rverApp, S3rverEventRecord, S3rverStore } from './s3rver-types.js';
import { bareEtag } from './write-preconditions.js';

interface TrackedWrite {
  readonly pending: Promise<void>[];
  readonly eventName?: string;
}

/**
 * Turns s3rver's `event` emissions into ObjectCreatedEvents. s3rver leaves the ETag out of copy
 * events, so those are completed from the store; `track` keeps that lookup inside the write's
 * key lock, otherwise a later write of the same key could lend the event its ETag. s3rver names
 * a completed multipart upload `ObjectCreated:Post` (a form upload); the write that tracks it
 * says what S3 calls it.
 */
export class ObjectCreatedRelay {
  private readonly writes = new AsyncLocalStorage<TrackedWrite>();

  constructor(
    private readonly store: S3rverStore,
    private readonly send: (event: ObjectCreatedEvent) => void,
  ) {}

  listen(app: S3rverApp): void {
    app.on('event', (payload) => payload.Records.forEach((record) => this.relay(record)));
  }

  /** Runs one write; settles only once the events it raised have been sent. `eventName` renames them. */
  readonly track = async (write: () => Promise<void>, eventName?: string): Promise<void> => {
    const pending: Promise<void>[] = [];
    try {
      await this.writes.run({ pending, eventName }, write);
    } finally {
      await Promise.all(pending);
    }
  };

  private relay(record: S3rverEventRecord): void {
    if (!record.eventName.startsWith('ObjectCreated:')) return;
    const tracked = this.writes.getStore();
    const sent = this.complete(record, tracked?.eventName).then(this.send, (error: unknown) => {
      process.stderr.write(`s3 emulator: dropped ${record.eventName} event for ${record.s3.object.key}: ${String(error)}\n`);
    });
    tracked?.pending.push(sent);
  }

  private async complete(record: S3rverEventRecord, eventName = record.eventName): Promise<ObjectCreatedEvent> {
    const bucket = record.s3.bucket.name;
    const { key, size, eTag } = record.s3.object;
    const stored = eTag === undefined || size === undefined ? await this.lookup(bucket, key) : undefined;
    return {
      bucket,
      key,
      size: size ?? stored?.size ?? 0,
      etag: bareEtag(eTag ?? stored?.etag ?? ''),
      eventName,
      eventTime: record.eventTime,
    };
  }

  private async lookup(bucket: string, key: string): Promise<{ etag: string; size: number } | undefined> {
    try {
      const metadata = await this.store.getMetadata(bucket, key);
      return { etag: metadata.etag, size: Number(metadata['content-length']) };
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  }
}
