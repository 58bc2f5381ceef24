import { GateError } from '../errors.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';

/** A JSON record of the run, or undefined when it is not there. */
export async function readRecord<T>(store: ObjectStore, key: string): Promise<T | undefined> {
  const bytes = await readWhole(store, key);
  if (!bytes) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as T;
  } catch (error) {
    throw new GateError('storage_failed', `${store.location}/${key} is not the JSON the fan-out wrote`, { cause: error });
  }
}

/** A record a step must find: the step before it wrote it. */
export async function requireRecord<T>(store: ObjectStore, key: string, writtenBy: string): Promise<T> {
  const record = await readRecord<T>(store, key);
  if (record === undefined) throw new GateError('not_found', `${store.location}/${key} is missing: ${writtenBy} has not finished`);
  return record;
}

/** Writes a step's result; a re-run writes the same bytes again. */
export async function putRecord(store: ObjectStore, key: string, record: unknown): Promise<void> {
  await store.put(key, `${JSON.stringify(record)}\n`, { contentType: 'application/json' });
}

/** Creates a record once; when it exists already, the existing one is the record (first writer wins). */
export async function createRecordOnce<T>(store: ObjectStore, key: string, record: T): Promise<T> {
  try {
    await store.put(key, `${JSON.stringify(record)}\n`, { ifNoneMatch: '*', contentType: 'application/json' });
    return record;
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    return requireRecord<T>(store, key, 'the writer that won the create');
  }
}
