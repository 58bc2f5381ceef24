import { rm } from 'node:fs/promises';
import { noSuchUpload, uploadFolder, uploadKey } from './multipart-completion.js';
import { pathTarget } from './request-target.js';
import { s3rverError, type KoaMiddleware, type S3rverFiles } from './s3rver-types.js';
import { isSafeBucketName } from './store-paths.js';

const MAX_PART_NUMBER = 10_000;

/**
 * Checks every request naming an upload before s3rver acts on it, and answers
 * AbortMultipartUpload, which s3rver lacks (MethodNotAllowed). s3rver joined `uploadId` and
 * `partNumber` from the query onto a folder path, creating it if missing, so an unknown upload
 * took parts and `../` in either wrote anywhere; S3 answers NoSuchUpload for an upload that does
 * not exist or belongs to another key. Runs after conditional-write-middleware.ts, so a complete
 * and an abort of one key's upload hold its lock and cannot interleave.
 */
export function multipartMiddleware(store: S3rverFiles): KoaMiddleware {
  return async (ctx, next) => {
    const target = pathTarget(ctx.path);
    if (!('uploadId' in ctx.query) || target === undefined || !isSafeBucketName(target.bucket)) return next();
    const { uploadId, partNumber } = ctx.query;
    const folder = uploadFolder(store, target.bucket, uploadId);
    if (folder === undefined || (await uploadKey(folder)) !== target.key) throw noSuchUpload(uploadId);
    if (ctx.method === 'PUT' && !isPartNumber(partNumber)) {
      throw s3rverError('InvalidArgument', `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`, {
        ArgumentName: 'partNumber',
        ArgumentValue: String(partNumber),
      });
    }
    if (ctx.method !== 'DELETE') return next();
    await rm(folder, { recursive: true, force: true });
    ctx.status = 204;
  };
}

function isPartNumber(value: unknown): boolean {
  return typeof value === 'string' && /^[1-9]\d{0,4}$/.test(value) && Number(value) <= MAX_PART_NUMBER;
}
