import { join } from 'node:path';
import { keyNames } from './key-names.js';
import type { S3rverFiles } from './s3rver-types.js';

/**
 * Bucket names that are one plain folder name: S3's own rules allow only letters, digits, `.`
 * and `-` (and legacy `_`); not starting with `.` rules out `.` and `..`.
 */
const SAFE_BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

export function isSafeBucketName(name: string): boolean {
  return SAFE_BUCKET.test(name);
}

/**
 * Points s3rver's store at files named by key-names.ts. s3rver joins a key's segments onto the
 * bucket's folder, so `a/../../x` (or `%2e%2e` on the wire, which HTTP decodes to `..`) named a
 * file outside it, and a 300-byte segment a name no file system takes. A bucket name that is not
 * one safe folder name is no bucket (NoSuchBucket), so it cannot lead outside the root either.
 */
export function storeKeysLiterally(store: S3rverFiles): void {
  const bucketPath = store.getBucketPath.bind(store);
  const getBucket = store.getBucket.bind(store);
  const getSubresource = store.getSubresource.bind(store);
  store.getBucketPath = (bucket) => {
    if (!isSafeBucketName(bucket)) throw new Error(`not a bucket name the emulator stores: ${JSON.stringify(bucket)}`);
    return bucketPath(bucket);
  };
  store.getBucket = async (bucket) => (isSafeBucketName(bucket) ? getBucket(bucket) : null);
  // s3rver's CORS and website middlewares look a bucket's configuration up before its existence.
  store.getSubresource = async (bucket, key, type) => (isSafeBucketName(bucket) ? getSubresource(bucket, key, type) : null);
  store.getResourcePath = (bucket, key = '', resource) => {
    // Keyless resources (the uploads folder, bucket configuration) keep s3rver's own names,
    // which start with `.` and so are never a key's.
    if (key === '') return join(store.getBucketPath(bucket), `._S3rver_${resource}`);
    const { folders, base } = keyNames(key);
    return join(store.getBucketPath(bucket), ...folders, `${base}._S3rver_${resource}`);
  };
}
