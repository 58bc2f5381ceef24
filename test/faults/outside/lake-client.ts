import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '../../../lib/storage/s3-client.js';

export const BUCKET = 'lake';

export interface ListedObject {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
}

/** An object as it is now: its bytes' own MD5 (not the ETag the endpoint claims) and its ETag. */
export interface FetchedObject extends ListedObject {
  readonly md5: string;
  readonly bytes: Uint8Array;
}

/**
 * The producer's and the checker's only way in: the AWS SDK v3 against the local endpoint. Every
 * call is retried while serve is down (a SIGKILL and restart), so a producer step either lands or
 * is repeated until it does, and the ledger knows the last write of every key.
 */
export class Lake {
  private readonly client: S3Client;

  constructor(endpoint: string, private readonly ready: () => Promise<void>) {
    this.client = createS3Client({ endpoint });
  }

  async put(key: string, body: Uint8Array | string): Promise<string> {
    // The length is given, or the SDK warns about a body of unknown length (it does so for an empty one).
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    const out = await this.retry(() => this.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentLength: length })));
    return unquote(out.ETag ?? '');
  }

  async delete(key: string): Promise<void> {
    await this.retry(() => this.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key })));
  }

  async head(key: string): Promise<{ etag: string; size: number; lastModified: string } | undefined> {
    return this.retry(async () => {
      try {
        const out = await this.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
        return { etag: unquote(out.ETag ?? ''), size: out.ContentLength ?? -1, lastModified: out.LastModified?.toISOString() ?? '' };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    });
  }

  async list(prefix: string): Promise<ListedObject[]> {
    const objects: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.retry(() => this.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token })));
      for (const o of page.Contents ?? []) objects.push({ key: o.Key ?? '', size: o.Size ?? -1, etag: unquote(o.ETag ?? '') });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return objects;
  }

  async fetch(key: string): Promise<FetchedObject | undefined> {
    return this.retry(async () => {
      try {
        const out = await this.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
        const bytes = await out.Body!.transformToByteArray();
        return { key, size: bytes.length, etag: unquote(out.ETag ?? ''), md5: md5(bytes), bytes };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    });
  }

  close(): void {
    this.client.destroy();
  }

  /** Network errors (the endpoint was killed) wait for the restart; anything else is retried a few times. */
  private async retry<T>(call: () => Promise<T>): Promise<T> {
    const until = Date.now() + 180_000;
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (isNotFound(error) || Date.now() > until || (!isNetwork(error) && attempt >= 5)) throw error;
        await this.ready().catch(() => undefined);
        await sleep(Math.min(1_000, 50 * attempt));
      }
    }
  }
}

export function md5(bytes: Uint8Array | string): string {
  return createHash('md5').update(bytes).digest('hex');
}

function unquote(etag: string): string {
  return etag.replace(/^"|"$/g, '');
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

function isNetwork(error: unknown): boolean {
  const e = error as { code?: string; name?: string; message?: string };
  return ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET'].includes(e?.code ?? '') || e?.name === 'TimeoutError' || /socket hang up|ECONNRESET|ECONNREFUSED/.test(e?.message ?? '');
}
