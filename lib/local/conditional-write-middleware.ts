import { respondNotModified, respondPreconditionFailed } from './precondition-failed.js';
import { failedCopySourceCondition, hasReadPreconditions, readOutcome, readPreconditions, type CurrentObject } from './read-preconditions.js';
import { objectRequest, withObjectLocks, type ObjectTarget } from './request-target.js';
import { errorCode } from '../storage/fs-errors.js';
import { KeyedMutex } from '../storage/keyed-mutex.js';
import { isSafeBucketName } from './store-paths.js';
import { s3rverError, type HeaderValue, type KoaContext, type KoaMiddleware, type S3rverStore } from './s3rver-types.js';
import { failedPrecondition, hasPreconditions, matchesAny, type WritePreconditions } from './write-preconditions.js';

export interface ConditionalWriteOptions {
  readonly store: S3rverStore;
  /** Wraps the downstream write while the key is still held (used to finish event payloads). */
  readonly aroundWrite?: (write: () => Promise<void>, eventName?: string) => Promise<void>;
}

/** Headers s3rver's GET would evaluate again, by its own looser rules, once ours have passed. */
const EVALUATED_READ_HEADERS = ['if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since'];

/**
 * Enforces S3's conditional requests, which s3rver ignores or gets wrong: If-Match /
 * If-None-Match on PutObject, CopyObject and CompleteMultipartUpload, If-Match on DeleteObject,
 * the four conditional-read headers on GET and HEAD, and the x-amz-copy-source-if-* headers on
 * CopyObject and UploadPartCopy. Each request holds the lock of every object it touches (a
 * copy's source too) from the check until s3rver has finished, so a check can never be
 * overtaken by a concurrent write of the same key (and s3rver never streams two bodies into one
 * file). A GET or HEAD holds it while s3rver reads the metadata and opens the body, so it sees
 * one write whole (the body then streams from the file it opened, which a later write renames
 * over rather than changes). Must run ahead of s3rver's chain.
 */
export function conditionalWriteMiddleware(options: ConditionalWriteOptions): KoaMiddleware {
  const locks = new KeyedMutex();
  const aroundWrite = options.aroundWrite ?? ((write) => write());
  const { store } = options;
  return async (ctx, next) => {
    const request = objectRequest(ctx);
    if (request === undefined) return next();
    await withObjectLocks(locks, request, async () => {
      switch (request.kind) {
        case 'read':
          return (await answeredRead(store, ctx, request.target)) ? undefined : next();
        case 'abort':
          return next();
        case 'part-copy':
          return (await refusedCopySource(store, ctx, request.source)) ? undefined : next();
        case 'delete':
          return (await refusedDelete(store, ctx, request.target)) ? undefined : aroundWrite(next);
        case 'complete':
          return (await refusedWrite(store, ctx, request.target)) ? undefined : aroundWrite(next, 'ObjectCreated:CompleteMultipartUpload');
        case 'write':
          if (await refusedWrite(store, ctx, request.target)) return;
          if (request.source !== undefined && (await refusedCopySource(store, ctx, request.source))) return;
          return aroundWrite(next);
      }
    });
  };
}

/** True when a condition decided the answer (412 or 304); an absent key is s3rver's 404. */
async function answeredRead(store: S3rverStore, ctx: KoaContext, target: ObjectTarget): Promise<boolean> {
  const preconditions = readPreconditions(ctx.headers);
  if (!hasReadPreconditions(preconditions)) return false;
  const current = await currentObject(store, target);
  if (current === undefined) return false;
  for (const header of EVALUATED_READ_HEADERS) delete ctx.headers[header];
  const outcome = readOutcome(preconditions, current);
  if (outcome.answer === 'precondition-failed') respondPreconditionFailed(ctx, outcome.condition);
  else if (outcome.answer === 'not-modified') respondNotModified(ctx, current);
  return outcome.answer !== 'proceed';
}

async function refusedWrite(store: S3rverStore, ctx: KoaContext, target: ObjectTarget): Promise<boolean> {
  const preconditions: WritePreconditions = { ifMatch: single(ctx.headers['if-match']), ifNoneMatch: single(ctx.headers['if-none-match']) };
  if (!hasPreconditions(preconditions)) return false;
  const failed = failedPrecondition(preconditions, (await currentObject(store, target))?.etag);
  if (failed !== undefined) respondPreconditionFailed(ctx, failed);
  return failed !== undefined;
}

/** S3 deletes on If-Match only: an absent key is NoSuchKey, another ETag a 412. */
async function refusedDelete(store: S3rverStore, ctx: KoaContext, target: ObjectTarget): Promise<boolean> {
  const ifMatch = single(ctx.headers['if-match']);
  if (ifMatch === undefined) return false;
  const current = await currentObject(store, target);
  if (current === undefined) throw s3rverError('NoSuchKey', 'The specified key does not exist.', { Key: target.key });
  if (matchesAny(ifMatch, current.etag)) return false;
  respondPreconditionFailed(ctx, 'If-Match');
  return true;
}

/** An absent source is left to s3rver, whose NoSuchKey S3 answers first too. */
async function refusedCopySource(store: S3rverStore, ctx: KoaContext, source: ObjectTarget): Promise<boolean> {
  const preconditions = readPreconditions(ctx.headers, 'x-amz-copy-source-');
  if (!hasReadPreconditions(preconditions)) return false;
  const current = await currentObject(store, source);
  const failed = current === undefined ? undefined : failedCopySourceCondition(preconditions, current);
  if (failed !== undefined) respondPreconditionFailed(ctx, failed);
  return failed !== undefined;
}

function single(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

async function currentObject(store: S3rverStore, target: ObjectTarget): Promise<CurrentObject | undefined> {
  // No such bucket, which s3rver answers as such once the condition has been let through.
  if (!isSafeBucketName(target.bucket)) return undefined;
  try {
    const metadata = await store.getMetadata(target.bucket, target.key);
    return { etag: metadata.etag, lastModified: metadata['last-modified'] ?? new Date(0).toUTCString() };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
