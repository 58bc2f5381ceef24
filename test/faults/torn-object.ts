import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectInfo } from '../../lib/storage/object-store.js';

/** Long enough for the emulator to finish a write of a few kilobytes it was in the middle of. */
const SETTLE_MS = 50;

/** S3 never returns an empty ETag; s3rver does while it rewrites an object's .md5 file. */
export const EMPTY_ETAG = '""';

/**
 * True when what was seen looks like an object caught mid-write (s3rver truncates and rewrites
 * files in place, even to overwrite an object with the same bytes): an empty ETag, or fewer
 * bytes than expected. A missing object is never torn: s3rver creates the file as it starts.
 */
export function looksTorn(seen: Pick<ObjectInfo, 'etag' | 'size'>, expectedSize: number): boolean {
  return seen.etag === EMPTY_ETAG || seen.size < expectedSize;
}

/** Looks again after the endpoint had time to finish writing: true when the object is whole by then. */
export async function wholeAfterSettling(recheck: () => Promise<boolean>): Promise<boolean> {
  await sleep(SETTLE_MS);
  return recheck();
}
