import { GateError } from '../errors.js';
import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';
import type { ChangedFile } from './decision.js';

/** A staged object as the gate listed it: the one version it judged. */
export interface ListedObject {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
}

/** A read, copy or delete pinned to a version that is no longer there: the producer changed the file. */
export function isChangeError(error: unknown): boolean {
  return error instanceof GateError && (error.code === 'precondition_failed' || error.code === 'not_found');
}

/** The files that are no longer the version listed: replaced (their ETag now) or deleted. */
export async function changedFiles(store: ObjectStore, files: readonly ListedObject[]): Promise<ChangedFile[]> {
  const changed: ChangedFile[] = [];
  for (const file of files) {
    const now = await store.head(file.key);
    if (now?.etag !== file.etag) changed.push({ key: file.key, listed: file.etag, now: now?.etag ?? null });
  }
  return changed;
}

/**
 * Copies exactly the listed version (S3 checks the source's ETag as it copies), unless an
 * earlier delivery already did; returns the copy's ETag, or the change that made it impossible.
 */
export async function copyPinned(store: ObjectStore, file: ListedObject, target: string, decidedAt: string): Promise<{ etag: string } | { changed: ChangedFile }> {
  const there = await store.head(target);
  if (there && isCopyOf(there, file, decidedAt)) return { etag: there.etag };
  try {
    return await store.copy(file.key, target, { sourceIfMatch: file.etag, sourceSize: file.size });
  } catch (error) {
    if (!isChangeError(error)) throw error;
    // The copy may have landed before the answer was lost (a retried request then finds its source gone).
    const landed = await store.head(target);
    if (landed && isCopyOf(landed, file, decidedAt)) return { etag: landed.etag };
    const now = await store.head(file.key);
    if (now?.etag === file.etag) throw unchangedConflict(file.key, error);
    return { changed: { key: file.key, listed: file.etag, now: now?.etag ?? null } };
  }
}

/**
 * Whether the target already holds the listed version. Equal ETags say so. A multipart ETag
 * (`…-3`) changes on copy, so then only size can be compared, and a file of the same size left
 * by an earlier publish is told apart by its time: a copy of this drop's is not older than its decision.
 */
function isCopyOf(there: ObjectInfo, file: ListedObject, decidedAt: string): boolean {
  if (there.size !== file.size) return false;
  if (there.etag === file.etag) return true;
  const multipart = there.etag.includes('-') || file.etag.includes('-');
  return multipart && there.lastModified.getTime() >= Date.parse(decidedAt);
}

/** Deletes the listed version only: a file the producer replaced since stays, for its next drop. */
export async function deletePinned(store: ObjectStore, file: ListedObject): Promise<void> {
  try {
    await store.delete(file.key, { ifMatch: file.etag });
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    if ((await store.head(file.key))?.etag === file.etag) throw unchangedConflict(file.key, error);
  }
}

/**
 * A condition that failed on a file still at its listed version: S3's 409 ConditionalRequestConflict
 * (another request on the key was in flight) reads as precondition_failed too. The file did not
 * change, so taking it as changed would leave it staged for good, or supersede a drop that stands.
 */
function unchangedConflict(key: string, cause: unknown): GateError {
  return new GateError('storage_failed', `${key}: a conditional request conflicted with another request while the file was unchanged; the delivery is retried`, { cause });
}
