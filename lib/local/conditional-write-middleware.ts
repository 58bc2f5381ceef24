import { respondPreconditionFailed } from './precondition-failed.js';
import { errorCode } from '../storage/fs-errors.js';
import { KeyedMutex } from '../storage/keyed-mutex.js';
import type { HeaderValue, KoaContext, KoaMiddleware, S3rverStore } from './s3rver-types.js';
import { failedPrecondition, hasPreconditions, type WritePreconditions } from './write-preconditions.js';

export interface ConditionalWriteOptions {
  readonly store: S3rverStore;
  /** Wraps the downstream write while the key is still held (used to finish event payloads). */
  readonly aroundWrite?: (write: () => Promise<void>) => Promise<void>;
}

/** Query parameters that make a request address something other than the object itself. */
const SUBRESOURCES = new Set(['acl', 'legal-hold', 'retention', 'tagging', 'torrent', 'uploadId', 'uploads', 'partNumber', 'versionId']);

interface ObjectTarget {
  readonly bucket: string;
  readonly key: string;
}

/**
 * Enforces If-Match / If-None-Match on PutObject and CopyObject, which s3rver ignores. Every
 * PUT or DELETE of an object holds that key's lock from the check until s3rver has finished
 * writing, so a check can never be overtaken by a concurrent write of the same key (and
 * s3rver never streams two bodies into one file). A GET or HEAD holds it while s3rver reads the
 * metadata and opens the body, so it sees one write whole (the body then streams from the file
 * it opened, which a later write renames over rather than changes). Must run first in s3rver's
 * chain. Path-style requests only: the emulator's clients always use them.
 */
export function conditionalWriteMiddleware(options: ConditionalWriteOptions): KoaMiddleware {
  const locks = new KeyedMutex();
  const aroundWrite = options.aroundWrite ?? ((write) => write());
  return async (ctx, next) => {
    const target = objectTarget(ctx);
    if (target === undefined) return next();
    await locks.run(`${target.bucket}/${target.key}`, async () => {
      if (ctx.method === 'GET' || ctx.method === 'HEAD') return next();
      const preconditions = ctx.method === 'PUT' ? readPreconditions(ctx.headers) : {};
      if (hasPreconditions(preconditions)) {
        const etag = await currentEtag(options.store, target);
        const failed = failedPrecondition(preconditions, etag);
        if (failed !== undefined) return respondPreconditionFailed(ctx, failed);
      }
      await aroundWrite(next);
    });
  };
}

/** GET, HEAD, PUT (plain or copy) and DELETE of an object itself; subresources such as ?tagging or ?uploadId are not. */
function objectTarget(ctx: KoaContext): ObjectTarget | undefined {
  if (!['GET', 'HEAD', 'PUT', 'DELETE'].includes(ctx.method)) return undefined;
  // Other query parameters (the SDK's x-id, presigning's X-Amz-*) do not change the target.
  if (Object.keys(ctx.query).some((name) => SUBRESOURCES.has(name))) return undefined;
  const match = /^\/([^/]+)\/(.+)$/s.exec(ctx.path);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  try {
    return { bucket: decodeURIComponent(match[1]), key: decodeURIComponent(match[2]) };
  } catch {
    return undefined; // malformed escapes: let s3rver reject the request its own way
  }
}

function readPreconditions(headers: Record<string, HeaderValue>): WritePreconditions {
  return { ifMatch: single(headers['if-match']), ifNoneMatch: single(headers['if-none-match']) };
}

function single(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

async function currentEtag(store: S3rverStore, target: ObjectTarget): Promise<string | undefined> {
  try {
    return (await store.getMetadata(target.bucket, target.key)).etag;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
