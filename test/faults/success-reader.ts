import { setTimeout as sleep } from 'node:timers/promises';
import { GateError } from '../../lib/errors.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import type { StagedDrop } from './five-file-drop.js';
import { EMPTY_ETAG, looksTorn, wholeAfterSettling } from './torn-object.js';
import type { Violations } from './violations.js';

const POLL_PAUSE_MS = 100;

interface ListedFile {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
}

/**
 * A consumer polling each drop's `_SUCCESS` while the handlers run, as a downstream job would:
 * read the manifest, then HEAD every file it lists. Runs until stopped; an error of the
 * harness's own (fault-free) client ends the loop and is raised by stop().
 */
export function startSuccessReader(store: ObjectStore, drops: readonly StagedDrop[], violations: Violations): { stop(): Promise<void> } {
  let stopped = false;
  const published = new Set<StagedDrop>();
  const loop = (async () => {
    while (!stopped) {
      for (const drop of drops) await readOnce(store, drop, violations, published);
      await sleep(POLL_PAUSE_MS);
    }
  })();
  // Held until stop(), so a failure is reported there instead of as an unhandled rejection.
  const failure = loop.then(() => undefined, (error: unknown) => ({ error }));
  return {
    async stop() {
      stopped = true;
      const failed = await failure;
      if (failed) throw failed.error;
    },
  };
}

async function readOnce(store: ObjectStore, drop: StagedDrop, violations: Violations, published: Set<StagedDrop>): Promise<void> {
  const key = `published/orders/v${drop.major}/${drop.partition}/_SUCCESS`;
  const files = await readManifest(store, key);
  if (files === undefined) return vanished(drop, key, violations, published);
  if (files === 'unreadable') {
    // S3 makes a PUT visible whole; only an endpoint writing in place shows half a manifest.
    const whole = await wholeAfterSettling(async () => Array.isArray(await readManifest(store, key)));
    return violations.add(whole ? 'torn-read' : 'reader', `${key} read as a partial manifest${whole ? ', whole a moment later' : ''}`);
  }
  published.add(drop);
  for (const listed of files) {
    const there = await store.head(listed.key);
    if (there && there.size === listed.size && there.etag === listed.etag) continue;
    const problem = `${key} lists ${listed.key} as ${listed.size} bytes ${listed.etag}; it is ${there ? `${there.size} bytes ${there.etag}` : 'missing'}`;
    const torn = there !== undefined && looksTorn(there, listed.size) && (await wholeAfterSettling(async () => (await store.head(listed.key))?.etag === listed.etag));
    violations.add(torn || listed.etag === EMPTY_ETAG ? 'torn-read' : 'reader', problem);
  }
}

/**
 * A published partition must stay published: the runs have no backfills, so the only way the
 * gate deletes a `_SUCCESS` is reading one half written (the emulator's doing), taking it for
 * another attempt's, and starting over as a backfill would.
 */
function vanished(drop: StagedDrop, key: string, violations: Violations, published: Set<StagedDrop>): void {
  if (!published.delete(drop)) return;
  violations.add('torn-read', `${key} was read whole, then was gone: a handler took a half-written _SUCCESS for another attempt's and deleted it`);
}

async function readManifest(store: ObjectStore, key: string): Promise<ListedFile[] | 'unreadable' | undefined> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readWhole(store, key);
  } catch (error) {
    // Deleted between the HEAD and the GET: for a reader, not there.
    if (error instanceof GateError && error.code === 'not_found') return undefined;
    throw error;
  }
  if (!bytes) return undefined;
  try {
    return (JSON.parse(new TextDecoder().decode(bytes)) as { files: ListedFile[] }).files;
  } catch {
    return 'unreadable';
  }
}
