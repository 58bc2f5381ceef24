import { collectEntries, type ListingEntries } from './listing-entries.js';
import { errorCode } from '../storage/fs-errors.js';
import {
  s3rverBucketController,
  s3rverObjectFactory,
  type KoaContext,
  type S3rverListing,
  type S3rverListOptions,
  type S3rverObject,
  type S3rverStore,
} from './s3rver-types.js';

/**
 * Stands in for the last entry of a truncated page when that entry is not an object (a common
 * prefix, or a key deleted meanwhile): s3rver's controller makes the next token or marker from
 * the last listed object, so the page must end with one. No real ETag looks like this, so the
 * controller wrapper can find these again and drop them from Contents.
 */
const PAGE_END_ETAG = '"contract-gate:page-end"';

export interface ListingPage {
  readonly entries: string[];
  readonly isTruncated: boolean;
}

/**
 * Makes s3rver list as S3 does. Its store walks folders and resumes a page after the last key
 * by string comparison, so keys that sort before a folder but are walked after it drop out of
 * later pages, and its controller counts common prefixes neither against MaxKeys nor as a place
 * to resume from. Here every entry under the prefix is collected, sorted by UTF-8 bytes, and
 * the page is the first MaxKeys entries (keys and common prefixes alike) after StartAfter.
 */
export function listInS3Order(store: S3rverStore): void {
  store.listObjects = sortedLister(store);
  const controller = s3rverBucketController();
  const getBucket = controller.getBucket.bind(controller);
  controller.getBucket = async (ctx) => {
    await getBucket(ctx);
    dropPageEnds(ctx);
  };
}

/**
 * The first `maxKeys` entries after `startAfter`, in UTF-8 byte order. A common prefix is one
 * entry sorting as itself, so a token or marker that names it skips all its keys: that is what
 * lets a page end on a common prefix without the next page repeating it.
 */
function selectPage(found: ListingEntries, startAfter: string, maxKeys = Infinity): ListingPage {
  const after = Buffer.from(startAfter, 'utf8');
  // Encoded once each: sorting ten thousand keys would otherwise encode each one many times.
  const candidates = [...found.keys, ...found.commonPrefixes]
    .map((entry) => ({ entry, bytes: Buffer.from(entry, 'utf8') }))
    .filter(({ bytes }) => Buffer.compare(bytes, after) > 0)
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  return { entries: candidates.slice(0, maxKeys).map(({ entry }) => entry), isTruncated: candidates.length > maxKeys };
}

function sortedLister(store: S3rverStore): (bucket: string, options: S3rverListOptions) => Promise<S3rverListing> {
  const toObject = s3rverObjectFactory();
  /** Undefined for a key deleted since the walk saw it. */
  const describe = async (bucket: string, key: string): Promise<S3rverObject | undefined> => {
    try {
      return toObject(bucket, key, await store.getMetadata(bucket, key));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  };
  return async (bucket, options) => {
    const scope = { prefix: options.prefix ?? '', delimiter: options.delimiter ?? '', startAfter: options.startAfter ?? '' };
    const found = await collectEntries(store.getBucketPath(bucket), scope);
    const page = selectPage(found, scope.startAfter, options.maxKeys);
    const keys = page.entries.filter((entry) => !found.commonPrefixes.has(entry));
    const objects = (await Promise.all(keys.map((key) => describe(bucket, key)))).filter((object) => object !== undefined);
    const last = page.entries.at(-1);
    if (page.isTruncated && last !== undefined && objects.at(-1)?.key !== last) {
      objects.push(toObject(bucket, last, { etag: PAGE_END_ETAG, 'content-length': 0, 'last-modified': new Date(0).toUTCString() }));
    }
    const commonPrefixes = page.entries.filter((entry) => found.commonPrefixes.has(entry));
    return { objects, commonPrefixes, isTruncated: page.isTruncated };
  };
}

interface ListBucketBody {
  ListBucketResult: { Contents: { ETag?: string }[]; CommonPrefixes: unknown[]; KeyCount?: number };
}

/** Removes page-end stand-ins and counts common prefixes in KeyCount, as S3 does. */
function dropPageEnds(ctx: KoaContext): void {
  const result = (ctx.body as Partial<ListBucketBody> | undefined)?.ListBucketResult;
  if (result === undefined) return;
  result.Contents = result.Contents.filter((content) => content.ETag !== PAGE_END_ETAG);
  if (result.KeyCount !== undefined) result.KeyCount = result.Contents.length + result.CommonPrefixes.length;
}
