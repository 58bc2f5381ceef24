import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { errorCode } from '../storage/fs-errors.js';
import { s3rverError, type S3rverFiles, type S3rverPart } from './s3rver-types.js';

/** s3rver names uploads with 16 random bytes in hex; anything else would be a path of the caller's choosing. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** The folder holding an upload's key, metadata and parts; undefined for an ID s3rver cannot have made. */
export function uploadFolder(store: S3rverFiles, bucket: string, uploadId: unknown): string | undefined {
  if (typeof uploadId !== 'string' || !UPLOAD_ID.test(uploadId)) return undefined;
  return join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
}

export function noSuchUpload(uploadId: unknown): Error {
  return s3rverError('NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.', {
    UploadId: String(uploadId),
  });
}

/** The key an upload was created for, or undefined when there is no such upload. */
export async function uploadKey(folder: string): Promise<string | undefined> {
  return readFile(join(folder, 'key'), 'utf8').catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  });
}

/**
 * Completes uploads as S3 does. s3rver assembled whatever parts it found, ignoring the listed
 * ETags and order, and answered with the MD5 of the whole body; S3 checks each listed part
 * (InvalidPart, InvalidPartOrder) and answers `"<MD5 of the parts' binary MD5s>-<count>"`.
 * The object is written through the store's putObject (atomic-object-files.ts), so it appears
 * whole or not at all.
 */
export function completeUploadsAsS3(store: S3rverFiles): void {
  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    const folder = uploadFolder(store, bucket, uploadId);
    const key = folder === undefined ? undefined : await uploadKey(folder);
    if (folder === undefined || key === undefined) throw noSuchUpload(uploadId);
    const metadata = JSON.parse(await readFile(join(folder, 'metadata'), 'utf8')) as Record<string, string>;
    const etag = multipartEtag(await listedPartMd5s(folder, parts));
    const content = Readable.from(partBytes(folder, parts));
    const { size } = await store.putObject({ bucket, key, metadata, content, etag });
    await rm(folder, { recursive: true, force: true });
    return { size, md5: etag };
  };
}

async function listedPartMd5s(folder: string, parts: readonly S3rverPart[]): Promise<string[]> {
  const md5s: string[] = [];
  for (const [at, part] of parts.entries()) {
    if (at > 0 && !(part.number > parts[at - 1]!.number)) {
      throw s3rverError('InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.');
    }
    const md5 = Number.isInteger(part.number) ? await readFile(join(folder, `${part.number}.md5`), 'utf8').catch(() => undefined) : undefined;
    if (md5 === undefined || md5 !== part.etag) {
      throw s3rverError(
        'InvalidPart',
        "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
        { PartNumber: part.number, ETag: part.etag },
      );
    }
    md5s.push(md5);
  }
  return md5s;
}

function multipartEtag(partMd5s: readonly string[]): string {
  const digest = createHash('md5');
  for (const md5 of partMd5s) digest.update(Buffer.from(md5, 'hex'));
  return `${digest.digest('hex')}-${partMd5s.length}`;
}

async function* partBytes(folder: string, parts: readonly S3rverPart[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield* createReadStream(join(folder, String(part.number)));
}
