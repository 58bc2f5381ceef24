import type { PartitionFile } from '../checks/validate-partition.js';
import type { ObjectStore } from './object-store.js';

/**
 * A staged object as a partition file: every slice is a ranged read, nothing is held open. Given
 * the ETag it was listed with, every read is pinned to that version, so a file the producer
 * replaces mid-run fails the read (precondition_failed) instead of mixing two versions.
 */
export function objectFile(store: ObjectStore, object: { readonly key: string; readonly size: number; readonly etag?: string }): PartitionFile {
  const pin = object.etag === undefined ? {} : { ifMatch: object.etag };
  return {
    path: object.key,
    byteLength: object.size,
    open: async () => ({
      source: { byteLength: object.size, slice: async (start, end = object.size) => (await store.read(object.key, start, end, pin)).slice().buffer },
      close: async () => {},
    }),
  };
}
