import { GateError } from '../errors.js';
import type { ObjectStore } from '../storage/object-store.js';

/**
 * The store a replay runs on: reads pass through, any write is refused. A replay runs against
 * the production lake, often with read-only credentials; this makes "it changes nothing" a
 * property of the code rather than of the credentials it happened to get.
 */
export function readOnlyStore(store: ObjectStore): ObjectStore {
  const refuse = (op: string, key: string): never => {
    throw new GateError('internal', `replay is read-only, yet it tried to ${op} ${store.location}/${key}`);
  };
  return {
    location: store.location,
    head: (key) => store.head(key),
    read: (key, start, end, options) => store.read(key, start, end, options),
    list: (prefix) => store.list(prefix),
    put: async (key) => refuse('put', key),
    // Refused before a chunk is pulled, rather than after put's fallback has joined them all.
    upload: async (key) => refuse('upload', key),
    copy: async (_source, target) => refuse('copy to', target),
    delete: async (key) => refuse('delete', key),
  };
}
