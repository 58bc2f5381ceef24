import { createReadStream, type ReadStream } from 'node:fs';
import { errorCode } from '../storage/fs-errors.js';
import { s3rverObjectFactory, type S3rverFiles, type S3rverMetadata } from './s3rver-types.js';

/**
 * Reads ranges as S3 does. s3rver's store took a range's last byte with `end || Infinity`, so
 * `bytes=0-0` (one byte, to GetObject or UploadPartCopy) read the whole object. Otherwise as
 * s3rver: an unsatisfiable range comes back without content, which its controllers refuse.
 */
export function readRangesAsS3(store: S3rverFiles): void {
  const toObject = s3rverObjectFactory();
  store.getObject = async (bucket, key, range) => {
    const metadata = await metadataOrNull(store, bucket, key);
    if (metadata === null) return null;
    const lastByte = Math.max(0, Number(metadata['content-length']) - 1);
    const ranged = range !== undefined && (range.start !== undefined || range.end !== undefined);
    const bytes = { start: range?.start ?? 0, end: Math.min(range?.end ?? Infinity, lastByte) };
    const satisfiable = bytes.start >= 0 && bytes.start <= bytes.end;
    const content = satisfiable ? await openRange(store.getResourcePath(bucket, key, 'object'), bytes) : null;
    if (satisfiable && content === null) return null; // deleted between the metadata and the open
    const object = toObject(bucket, key, metadata, content);
    return ranged ? Object.assign(object, { range: bytes }) : object;
  };
}

async function metadataOrNull(store: S3rverFiles, bucket: string, key: string): Promise<S3rverMetadata | null> {
  try {
    return await store.getMetadata(bucket, key);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Resolves once the file is open, so a later rename over it cannot change what is read. */
function openRange(path: string, bytes: { start: number; end: number }): Promise<ReadStream | null> {
  return new Promise((resolve, reject) => {
    const stream = createReadStream(path, bytes)
      .once('open', () => resolve(stream))
      .once('error', (error) => (errorCode(error) === 'ENOENT' ? resolve(null) : reject(error)));
  });
}
