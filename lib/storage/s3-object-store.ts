import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { describeError, GateError } from '../errors.js';
import { checkRange, pullChunks, type CopyOptions, type ObjectInfo, type ObjectStore } from './object-store.js';
import { copyInParts, SINGLE_COPY_LIMIT } from './s3-multipart-copy.js';
import { MIN_PART_SIZE, uploadInParts } from './s3-multipart-upload.js';

/**
 * The object-store port over any S3-compatible endpoint. Conditions are sent to S3 so the
 * server decides atomically; this adapter only translates S3's answers into GateErrors.
 */
export interface S3ObjectStoreOptions {
  readonly client: S3Client;
  readonly bucket: string;
  /** Objects larger than this are copied in parts. @default 5 GiB, S3's limit for one CopyObject */
  readonly multipartCopyAbove?: number;
  /** @default 512 MiB */
  readonly copyPartSize?: number;
  /** The least bytes per part of an upload (the memory it takes is about two parts). @default 5 MiB, S3's minimum */
  readonly uploadPartSize?: number;
}

export function s3ObjectStore(options: S3ObjectStoreOptions): ObjectStore {
  const { client, bucket } = options;
  const multipartAbove = options.multipartCopyAbove ?? SINGLE_COPY_LIMIT;
  const partSize = options.copyPartSize ?? 512 * 1024 ** 2;
  const uploadPartSize = options.uploadPartSize ?? MIN_PART_SIZE;
  if (!(Number.isSafeInteger(uploadPartSize) && uploadPartSize >= MIN_PART_SIZE)) {
    throw new GateError('bad_arguments', `uploadPartSize ${uploadPartSize}: S3 takes parts of at least ${MIN_PART_SIZE} bytes`);
  }
  const location = `s3://${bucket}`;
  const fail = (op: string, key: string, error: unknown): never => {
    throw toGateError(op, `${location}/${key}`, error);
  };

  const store: ObjectStore = {
    location,
    async head(key) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return objectInfo(key, out.ContentLength, out.ETag, out.LastModified, out.VersionId);
      } catch (error) {
        if (errorKind(error) === 'not_found') return undefined;
        return fail('head', key, error);
      }
    },

    async read(key, start, end, readOptions = {}) {
      checkRange(`${location}/${key}`, start, end);
      // An empty Range is not expressible (bytes=5-4 is invalid), so skip the round trip.
      if (end === start) return new Uint8Array(0);
      try {
        // Always an explicit first-last range: a suffix range (bytes=-n) means "the last n bytes".
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${end - 1}`, IfMatch: readOptions.ifMatch }));
        return out.Body ? await out.Body.transformToByteArray() : new Uint8Array(0);
      } catch (error) {
        return fail('read', key, error);
      }
    },

    list(prefix) {
      return listAll(client, bucket, prefix, (error) => fail('list', prefix, error));
    },

    async put(key, body, writeOptions = {}) {
      const conditions = { IfNoneMatch: writeOptions.ifNoneMatch, IfMatch: writeOptions.ifMatch };
      try {
        const out = await client.send(
          // As bytes: the SDK takes an empty string for a stream of unknown length and warns about it.
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body, ContentType: writeOptions.contentType, ...conditions }),
        );
        return { etag: requireEtag(out.ETag, 'put', `${location}/${key}`) };
      } catch (error) {
        // S3 answers If-Match on an absent key with 404; to the caller that is a failed condition.
        if (writeOptions.ifMatch !== undefined && errorKind(error) === 'not_found') throw preconditionFailed('put', `${location}/${key}`, error);
        return fail('put', key, error);
      }
    },

    async copy(sourceKey, targetKey, copyOptions = {}) {
      const target = `${location}/${targetKey}`;
      const encodedSource = `${bucket}/${encodeKey(sourceKey)}`;
      try {
        if (copyOptions.sourceSize !== undefined && copyOptions.sourceSize > multipartAbove) {
          const { sourceSize: size, sourceIfMatch } = copyOptions;
          return await copyInParts({ client, bucket, sourceKey, targetKey, size, partSize, sourceIfMatch, encodedSource });
        }
        const out = await client.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: targetKey,
            CopySource: encodedSource,
            CopySourceIfMatch: copyOptions.sourceIfMatch,
            IfNoneMatch: copyOptions.ifNoneMatch,
            IfMatch: copyOptions.ifMatch,
          }),
        );
        return { etag: requireEtag(out.CopyObjectResult?.ETag, 'copy', target) };
      } catch (error) {
        if (errorKind(error) === 'not_found') await throwMissingCopyPart(store, sourceKey, target, copyOptions, error);
        return fail('copy', targetKey, error);
      }
    },

    async upload(key, chunks, uploadOptions = {}) {
      try {
        const pulled = pullChunks(chunks, `${location}/${key}`);
        return await uploadInParts({ client, bucket, key, chunks: pulled, partSize: uploadPartSize, contentType: uploadOptions.contentType });
      } catch (error) {
        return fail('upload', key, error);
      }
    },

    async delete(key, deleteOptions = {}) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, IfMatch: deleteOptions.ifMatch }));
      } catch (error) {
        if (errorKind(error) === 'not_found') return;
        fail('delete', key, error);
      }
    },
  };
  return store;
}

async function* listAll(client: S3Client, bucket: string, prefix: string, fail: (error: unknown) => never): AsyncGenerator<ObjectInfo> {
  let token: string | undefined;
  do {
    const page = await client
      .send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }))
      .catch(fail);
    for (const item of page.Contents ?? []) {
      if (item.Key !== undefined) yield objectInfo(item.Key, item.Size, item.ETag, item.LastModified);
    }
    // A truncated page without a token would loop forever; trust the token, not the flag.
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

/**
 * A 404 from CopyObject means either the source is missing or (with If-Match) the target is.
 * Only the first is not_found; the second is a failed condition, so ask which one it was.
 */
async function throwMissingCopyPart(store: ObjectStore, sourceKey: string, target: string, options: CopyOptions, error: unknown): Promise<never> {
  if (options.ifMatch !== undefined && (await store.head(sourceKey)) !== undefined) {
    throw preconditionFailed('copy', target, error);
  }
  throw new GateError('not_found', `copy ${store.location}/${sourceKey}: no such key`, { cause: error, context: { key: sourceKey } });
}

/** CopySource is a URL path: each segment is percent-encoded so spaces, `+`, `=`, `%` and unicode survive. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

function objectInfo(key: string, size: number | undefined, etag: string | undefined, lastModified: Date | undefined, versionId?: string): ObjectInfo {
  return {
    key,
    size: size ?? 0,
    etag: etag ?? '',
    lastModified: lastModified ?? new Date(0),
    ...(versionId ? { versionId } : {}),
  };
}

function requireEtag(etag: string | undefined, op: string, where: string): string {
  if (etag) return etag;
  throw new GateError('storage_failed', `${op} ${where}: the response carried no ETag`);
}

type ErrorKind = 'precondition_failed' | 'not_found' | 'other';

function errorKind(error: unknown): ErrorKind {
  const { name, status } = errorShape(error);
  // 409 ConditionalRequestConflict: another conditional write raced this one; S3 says re-read and retry.
  if (status === 412 || name === 'PreconditionFailed' || name === 'ConditionalRequestConflict') return 'precondition_failed';
  // A missing bucket is a misconfiguration, not an absent object.
  if (name === 'NoSuchBucket') return 'other';
  if (status === 404 || name === 'NoSuchKey' || name === 'NotFound') return 'not_found';
  return 'other';
}

function errorShape(error: unknown): { name?: string; status?: number } {
  if (typeof error !== 'object' || error === null) return {};
  const { name, Code, $metadata } = error as { name?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = $metadata?.httpStatusCode;
  return {
    name: typeof Code === 'string' ? Code : typeof name === 'string' ? name : undefined,
    status: typeof status === 'number' ? status : undefined,
  };
}

function preconditionFailed(op: string, where: string, cause: unknown): GateError {
  return new GateError('precondition_failed', `${op} ${where}: precondition failed`, { cause, context: { location: where } });
}

function toGateError(op: string, where: string, error: unknown): GateError {
  if (error instanceof GateError) return error;
  const kind = errorKind(error);
  if (kind === 'precondition_failed') return preconditionFailed(op, where, error);
  if (kind === 'not_found') return new GateError('not_found', `${op} ${where}: no such key`, { cause: error, context: { location: where } });
  return new GateError('storage_failed', `${op} ${where}: ${describeError(error)}`, { cause: error, context: { location: where } });
}
