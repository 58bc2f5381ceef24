import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorCode } from '../storage/fs-errors.js';
import { s3rverAllowedMetadata, type S3rverFiles, type S3rverPutObject } from './s3rver-types.js';

/** A folder emptied by a DELETE can vanish under a write into it: the write starts again. */
const ATTEMPTS = 5;

/**
 * Makes s3rver's filesystem store write as S3 does, an object whole or not at all, and never
 * lose one. s3rver streams a body into the object's file in place (and answers a buffered PUT
 * before the bytes are flushed), so a reader can see it half written; and its DELETE tidies
 * emptied folders with a recursive rm that takes along a file another PUT has just written there.
 * Here each file is written aside and renamed into place, the object's own file last (its
 * presence is the key's), and a folder is removed only while it is empty. Readers take the key's
 * lock (see conditional-write-middleware.ts), so they never see metadata and body of two writes.
 */
export function writeObjectsAtomically(store: S3rverFiles): void {
  const metadataOf = s3rverAllowedMetadata();
  const putMetadata = async (bucket: string, key: string, metadata: Record<string, string>, md5?: string) => {
    if (md5 !== undefined) await replaceFile(store.getResourcePath(bucket, key, 'object.md5'), md5);
    await replaceFile(store.getResourcePath(bucket, key, 'metadata.json'), JSON.stringify(metadataOf(metadata), null, 2));
  };
  store.putMetadata = putMetadata;
  store.putObject = async (object: S3rverPutObject) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    const written = await writeAside(objectPath, object.content);
    const etag = object.etag ?? written.md5;
    await putMetadata(object.bucket, object.key, object.metadata, etag);
    await rename(written.path, objectPath);
    return { size: written.size, md5: etag };
  };
  store.copyObject = async (sourceBucket, sourceKey, bucket, key, replacement) => {
    const source = store.getResourcePath(sourceBucket, sourceKey, 'object');
    const target = store.getResourcePath(bucket, key, 'object');
    if (replacement) await putMetadata(bucket, key, replacement);
    if (source !== target) {
      if (!replacement) await copyMetadata(store, { bucket: sourceBucket, key: sourceKey }, { bucket, key });
      // The object's file last, as for a PUT: its arrival makes the key.
      await copyInto(target, (aside) => copyFile(source, aside));
    }
    return store.getMetadata(bucket, key);
  };
  store.deleteObject = async (bucket, key) => {
    // The object's file first: from then on the key is gone, whatever is left to tidy.
    const objectPath = store.getResourcePath(bucket, key, 'object');
    for (const resource of ['object', 'object.md5', 'metadata.json', 'tagging.xml']) await removeFile(store.getResourcePath(bucket, key, resource));
    await removeEmptyFolders(store.getBucketPath(bucket), dirname(objectPath));
  };
}

async function copyMetadata(store: S3rverFiles, from: { bucket: string; key: string }, to: { bucket: string; key: string }): Promise<void> {
  for (const resource of ['object.md5', 'metadata.json']) {
    await copyInto(store.getResourcePath(to.bucket, to.key, resource), (aside) => copyFile(store.getResourcePath(from.bucket, from.key, resource), aside));
  }
}

/**
 * Writes the body beside its final path, counting its bytes and MD5 on the way. The file is
 * created before a byte is read, so a body stream is never read twice; once it exists, its
 * folder cannot be tidied away (it is not empty).
 */
async function writeAside(finalPath: string, content: Buffer | NodeJS.ReadableStream): Promise<{ path: string; size: number; md5: string }> {
  const path = asidePath(finalPath);
  const file = await retried(async () => {
    await mkdir(dirname(finalPath), { recursive: true });
    return open(path, 'wx');
  });
  const md5 = createHash('md5');
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      md5.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, count, file.createWriteStream());
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { path, size, md5: md5.digest('hex') };
}

/** Small files (metadata, MD5) written aside and renamed over the old. */
async function replaceFile(finalPath: string, body: string): Promise<void> {
  await copyInto(finalPath, (aside) => writeFile(aside, body));
}

/** Fills a file beside `finalPath` and renames it into place; starts again if its folder vanished. */
async function copyInto(finalPath: string, fill: (aside: string) => Promise<void>): Promise<void> {
  await retried(async () => {
    await mkdir(dirname(finalPath), { recursive: true });
    const aside = asidePath(finalPath);
    await fill(aside);
    await rename(aside, finalPath);
  });
}

/** A name in the final file's folder, so the rename stays on one file system and hides from listings. */
function asidePath(finalPath: string): string {
  return join(dirname(finalPath), `.${randomBytes(6).toString('hex')}.writing`);
}

async function retried<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' || attempt >= ATTEMPTS) throw error;
    }
  }
}

async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (errorCode(error) !== 'ENOENT') throw error;
  });
}

/** Deepest first, up to (not including) the bucket's folder; stops at the first that holds anything, even something written just now. */
async function removeEmptyFolders(bucketPath: string, deepest: string): Promise<void> {
  for (let folder = deepest; folder.startsWith(bucketPath + sep); folder = dirname(folder)) {
    try {
      await rmdir(folder);
    } catch (error) {
      if (['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(errorCode(error) ?? '')) return;
      throw error;
    }
  }
}
