import { readWhole, type ObjectStore } from '../storage/object-store.js';
import { publishedPrefix, type GateLayout } from './gate-layout.js';
import type { AttemptRef } from './quarantine-attempt.js';

/**
 * Why an attempt may no longer be put back or published: the partition's `_SUCCESS` is from a
 * later attempt (attempt ids start with their decision time, so they sort by it), a newer drop
 * or release that the old batch would overwrite. Undefined when there is none.
 */
export async function publishedSince(store: ObjectStore, layout: GateLayout, ref: AttemptRef): Promise<string | undefined> {
  const key = `${publishedPrefix(layout, ref.address)}${layout.success}`;
  const bytes = await readWhole(store, key);
  if (!bytes) return undefined;
  let manifest: { attempt?: unknown; release?: { by?: unknown; from_attempt?: unknown } };
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes)) as typeof manifest;
  } catch {
    return `${store.location}/${key} exists and cannot be read, so it cannot be told whether it is newer than attempt ${ref.attempt}`;
  }
  const attempt = typeof manifest.attempt === 'string' ? manifest.attempt : '';
  if (attempt <= ref.attempt) return undefined;
  const how = manifest.release ? `released by override from attempt ${String(manifest.release.from_attempt)} by ${String(manifest.release.by)}` : 'a newer drop';
  return `the partition was published since: ${store.location}/${key} is from attempt ${attempt} (${how}), later than ${ref.attempt}`;
}
