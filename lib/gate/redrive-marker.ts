import type { ObjectStore } from '../storage/object-store.js';
import { manifestText, parseManifest } from './manifest.js';
import type { QuarantinedAttempt } from './quarantine-attempt.js';
import { MAX_MARKER_BYTES } from './read-drop.js';

/** The `_READY` a redrive puts into staging after the files, and what it was made from. */
export interface RedriveMarker {
  readonly body: string;
  readonly bytes: 'kept manifest' | 'fresh manifest';
}

/**
 * The kept marker's manifest when it had one (paths and sizes, which a copy keeps), so the drop
 * is checked against it again; else a manifest of exactly the redriven files, which keeps out a
 * file that lands in staging meanwhile. A kept manifest gets a `redrive_of` key the gate ignores:
 * byte for byte the old marker could be put within the second its drop was quarantined in, and
 * then have the old drop's identity (ETag and LastModified), and the gate would take it for that
 * drop, already carried out. A kept marker that is no manifest failed the drop by itself, which
 * no contract change mends: refused.
 */
export async function redriveMarker(store: ObjectStore, attempt: QuarantinedAttempt): Promise<RedriveMarker | { refused: string }> {
  const { marker } = attempt;
  if (!marker || marker.size === 0) return { body: manifestText(attempt.files), bytes: 'fresh manifest' };
  const notManifest = (why: string) => ({
    refused: `the kept ${store.location}/${marker.key} is not a manifest (${why}): the drop failed on its marker, which judging it again cannot change; fix the marker and drop the files again`,
  });
  if (marker.size > MAX_MARKER_BYTES) return notManifest(`${marker.size} bytes, more than a manifest may have`);
  const text = new TextDecoder().decode(await store.read(marker.key, 0, marker.size, { ifMatch: marker.etag }));
  const listed = parseManifest(text);
  if (typeof listed === 'string') return notManifest(listed);
  const manifest = JSON.parse(text) as Record<string, unknown>;
  return { body: `${JSON.stringify({ ...manifest, redrive_of: attempt.attempt }, null, 2)}\n`, bytes: 'kept manifest' };
}
