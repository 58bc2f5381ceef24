import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';
import { stagingPrefix, type GateLayout } from './gate-layout.js';
import { copyPinned, deletePinned } from './pinned-copy.js';
import type { QuarantinedAttempt } from './quarantine-attempt.js';
import type { StagedFile } from './read-drop.js';

/** One data file of the attempt and the staging key it goes back to, its path below the partition kept. */
export interface PlannedCopy {
  readonly file: StagedFile;
  readonly to: string;
}

export function plannedCopies(layout: GateLayout, attempt: QuarantinedAttempt): PlannedCopy[] {
  const prefix = stagingPrefix(layout, attempt.address);
  return attempt.files.map((file) => ({ file, to: `${prefix}${file.relative}` }));
}

/**
 * Why staging is not free for a redrive, or undefined. Anything there (data files, a marker, a
 * stray `_tmp`) is a drop in progress that the redriven files would mix into. Copies an
 * interrupted run of this very redrive made (`mine`) are its own and do not count.
 */
export async function stagingInTheWay(store: ObjectStore, layout: GateLayout, attempt: QuarantinedAttempt, mine: readonly PlannedCopy[]): Promise<string | undefined> {
  const ours = new Map(mine.map((copy) => [copy.to, copy.file]));
  const foreign: string[] = [];
  for await (const object of store.list(stagingPrefix(layout, attempt.address))) {
    const source = ours.get(object.key);
    if (!source || !holdsCopy(object, source)) foreign.push(object.key);
  }
  if (foreign.length === 0) return undefined;
  const named = foreign.slice(0, 3).map((key) => `${store.location}/${key}`).join(', ');
  const more = foreign.length > 3 ? ` and ${foreign.length - 3} more` : '';
  return `staging for the partition already holds ${foreign.length} ${foreign.length === 1 ? 'object' : 'objects'} (${named}${more}): a drop is in progress there and the redriven files would mix with it; redrive once the gate has handled it`;
}

/** Copies every file back, each pinned to the version listed; the first that changed since is returned instead. */
export async function copyBack(store: ObjectStore, copies: readonly PlannedCopy[], startedAt: string): Promise<{ etags: string[] } | { changed: string }> {
  const etags: string[] = [];
  for (const { file, to } of copies) {
    const copied = await copyPinned(store, file, to, startedAt);
    if ('changed' in copied) return { changed: `${store.location}/${file.key} changed while it was being copied back (its ETag was ${file.etag})` };
    etags.push(copied.etag);
  }
  return { etags };
}

/** How many of the copies are in staging now: all before the marker is put, none once the gate carried the drop out. */
export async function copiesInStaging(store: ObjectStore, copies: readonly PlannedCopy[]): Promise<number> {
  let present = 0;
  for (const { file, to } of copies) {
    const there = await store.head(to);
    if (there && holdsCopy(there, file)) present += 1;
  }
  return present;
}

/** Takes back what an interrupted redrive put into staging (copies only: the originals stay in quarantine). */
export async function takeBack(store: ObjectStore, copies: readonly PlannedCopy[]): Promise<void> {
  for (const { file, to } of copies) {
    const there = await store.head(to);
    if (there && holdsCopy(there, file)) await deletePinned(store, there);
  }
}

/** Same size, and the same ETag unless either is multipart (a multipart copy gets a new one). */
function holdsCopy(there: ObjectInfo, file: StagedFile): boolean {
  if (there.size !== file.size) return false;
  return there.etag === file.etag || there.etag.includes('-') || file.etag.includes('-');
}
