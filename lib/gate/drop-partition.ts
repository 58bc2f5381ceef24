import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '../storage/object-store.js';
import type { DropLink } from './drop-link.js';
import type { GateLayout } from './gate-layout.js';
import { manifestText } from './manifest.js';

export interface FileToDrop {
  /** Path below the partition, e.g. `part-0000.parquet`. */
  readonly relative: string;
  readonly read: () => Promise<Uint8Array>;
  readonly size: number;
}

export interface DroppedPartition {
  readonly marker: string;
  /** The ETag the marker's PUT returned: what finds this drop's decision (see await-outcome.ts). */
  readonly markerEtag: string;
  readonly keys: string[];
}

/**
 * What a producer job does: upload the data files, then the `_READY` manifest naming them with
 * their sizes. The marker goes last, so the gate never starts on a half upload.
 */
export async function dropPartition(store: ObjectStore, layout: GateLayout, prefix: string, files: readonly FileToDrop[]): Promise<DroppedPartition> {
  const keys = await uploadFiles(store, prefix, files);
  return { ...(await putMarker(store, layout, prefix, files)), keys };
}

/** The data files of a drop, before any marker. */
export async function uploadFiles(store: ObjectStore, prefix: string, files: readonly FileToDrop[]): Promise<string[]> {
  const keys: string[] = [];
  for (const file of files) {
    const key = `${prefix}${file.relative}`;
    await store.put(key, await file.read());
    keys.push(key);
  }
  return keys;
}

/** The `_READY` manifest, once every file is up; `linked` names the sibling of a dual-write drop. */
export async function putMarker(store: ObjectStore, layout: GateLayout, prefix: string, files: readonly FileToDrop[], linked?: DropLink): Promise<Omit<DroppedPartition, 'keys'>> {
  const marker = `${prefix}${layout.marker}`;
  const { etag } = await store.put(marker, manifestText(files, randomUUID(), linked), { contentType: 'application/json' });
  return { marker, markerEtag: etag };
}
