import { GateError } from '../errors.js';
import type { ObjectStore } from '../storage/object-store.js';

/** Time one storage call may take; a call started later than this before the deadline is not started. */
export const CALL_MARGIN_MS = 10_000;

/**
 * Stops a handler cleanly before its deadline: no storage call starts when too little time is
 * left for it, so the handler ends with a retryable error between two calls (where the protocol
 * is safe to resume) instead of being killed in the middle of one.
 */
export function deadlineStore(store: ObjectStore, deadline: number, clock: () => number, margin = CALL_MARGIN_MS): ObjectStore {
  const guard = <T>(call: () => Promise<T>): Promise<T> => {
    const left = deadline - clock();
    if (left < margin) return Promise.reject(new GateError('deadline', `stopping with ${Math.max(0, Math.round(left / 1000))} s left before the deadline; the next delivery resumes from here`, { context: { deadline } }));
    return call();
  };
  const upload = store.upload?.bind(store);
  return {
    location: store.location,
    head: (key) => guard(() => store.head(key)),
    read: (key, start, end, options) => guard(() => store.read(key, start, end, options)),
    list: (prefix) => guardedList(store, prefix, guard),
    put: (key, body, options) => guard(() => store.put(key, body, options)),
    copy: (source, target, options) => guard(() => store.copy(source, target, options)),
    delete: (key, options) => guard(() => store.delete(key, options)),
    // An upload is a call per part: each chunk is guarded as a call of its own, and a refused one
    // fails the upload, which the store then aborts, leaving no object.
    ...(upload && { upload: (key, chunks, options) => guard(() => upload(key, guardedChunks(chunks, guard), options)) }),
  };
}

async function* guardedChunks(chunks: AsyncIterable<Uint8Array>, guard: <T>(call: () => Promise<T>) => Promise<T>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield await guard(async () => chunk);
}

async function* guardedList(store: ObjectStore, prefix: string, guard: <T>(call: () => Promise<T>) => Promise<T>): AsyncIterable<Awaited<ReturnType<ObjectStore['head']>> & object> {
  await guard(async () => undefined);
  yield* store.list(prefix);
}
