import type { KeyedMutex } from '../storage/keyed-mutex.js';
import type { KoaContext } from './s3rver-types.js';

export interface ObjectTarget {
  readonly bucket: string;
  readonly key: string;
}

/** What a request does to which objects; only these take key locks. */
export type ObjectRequest =
  | { readonly kind: 'read' | 'delete' | 'complete' | 'abort'; readonly target: ObjectTarget }
  | { readonly kind: 'write'; readonly target: ObjectTarget; readonly source?: ObjectTarget }
  | { readonly kind: 'part-copy'; readonly target: ObjectTarget; readonly source: ObjectTarget };

/** Query parameters that make a request address something other than the object itself. */
const SUBRESOURCES = new Set(['acl', 'legal-hold', 'retention', 'tagging', 'torrent', 'uploads', 'partNumber', 'versionId']);

/**
 * GET, HEAD, PUT (plain or copy) and DELETE of an object; CompleteMultipartUpload and
 * AbortMultipartUpload (they write or drop what the key will become); UploadPartCopy (it reads
 * its source). A plain UploadPart touches no object, and subresources such as ?tagging are not
 * the object. Path-style requests only: the emulator's clients always use them.
 */
export function objectRequest(ctx: KoaContext): ObjectRequest | undefined {
  const target = pathTarget(ctx.path);
  if (target === undefined) return undefined;
  const source = copySource(ctx.headers['x-amz-copy-source']);
  if ('uploadId' in ctx.query) {
    if (ctx.method === 'POST') return { kind: 'complete', target };
    if (ctx.method === 'DELETE') return { kind: 'abort', target };
    return ctx.method === 'PUT' && source !== undefined ? { kind: 'part-copy', target, source } : undefined;
  }
  // Other query parameters (the SDK's x-id, presigning's X-Amz-*) do not change the target.
  if (Object.keys(ctx.query).some((name) => SUBRESOURCES.has(name))) return undefined;
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return { kind: 'read', target };
  if (ctx.method === 'DELETE') return { kind: 'delete', target };
  if (ctx.method === 'PUT') return source === undefined ? { kind: 'write', target } : { kind: 'write', target, source };
  return undefined;
}

/**
 * Runs `task` holding the lock of every object the request touches. Locks are taken in one
 * order (by name) whatever the request, so a copy of a to b and one of b to a cannot each hold
 * one lock and wait for the other.
 */
export async function withObjectLocks<T>(locks: KeyedMutex, request: ObjectRequest, task: () => Promise<T>): Promise<T> {
  const objects = request.kind === 'part-copy' ? [request.source] : request.kind === 'write' && request.source ? [request.target, request.source] : [request.target];
  const names = [...new Set(objects.map(({ bucket, key }) => `${bucket}/${key}`))].sort();
  const run = (at: number): Promise<T> => (at === names.length ? task() : locks.run(names[at]!, () => run(at + 1)));
  return run(0);
}

export function pathTarget(path: string): ObjectTarget | undefined {
  const match = /^\/([^/]+)\/(.+)$/s.exec(path);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  try {
    return { bucket: decodeURIComponent(match[1]), key: decodeURIComponent(match[2]) };
  } catch {
    return undefined; // malformed escapes: let s3rver reject the request its own way
  }
}

/** The source as s3rver's controllers read it (copy-source-middleware.ts has normalised the header). */
function copySource(header: string | string[] | undefined): ObjectTarget | undefined {
  if (typeof header !== 'string') return undefined;
  let decoded: string;
  try {
    decoded = decodeURI(header).replace(/^\//, '');
  } catch {
    return undefined;
  }
  const slash = decoded.indexOf('/');
  return slash <= 0 ? undefined : { bucket: decoded.slice(0, slash), key: decoded.slice(slash + 1) };
}
