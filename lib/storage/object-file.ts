import type { PartitionFile } from '../checks/validate-partition.js';
import type { ObjectStore } from './object-store.js';

/** A staged object as a partition file: every slice is a ranged read, nothing is held open. */
export function objectFile(store: ObjectStore, object: { readonly key: string; readonly size: number }): PartitionFile {
  return {
    path: object.key,
    byteLength: object.size,
    open: async () => ({
      source: { byteLength: object.size, slice: async (start, end = object.size) => (await store.read(object.key, start, end)).slice().buffer },
      close: async () => {},
    }),
  };
}
