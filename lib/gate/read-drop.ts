import { hashTag } from '../checks/key-hash.js';
import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';
import { stagingPrefix, type DropAddress, type GateLayout } from './gate-layout.js';

/** A producer's drop: the marker that completed it and the data files staged beside it. */
export interface Drop {
  readonly address: DropAddress;
  readonly marker: ObjectInfo;
  /** Identifies this drop among re-drops of the same partition (from the marker's identity). */
  readonly tag: string;
  readonly files: readonly StagedFile[];
  /** The marker's bytes: empty, or a manifest of the files the producer meant to drop. */
  readonly markerBody: Uint8Array;
}

export interface StagedFile {
  readonly key: string;
  /** The path below the partition prefix, kept when the file moves. */
  readonly relative: string;
  readonly size: number;
  readonly etag: string;
}

/** A marker larger than this is not a manifest anyone wrote by hand or by a job. */
export const MAX_MARKER_BYTES = 4 * 1024 * 1024;

export function dropTag(marker: ObjectInfo): string {
  const identity = `${marker.etag}|${marker.lastModified.toISOString()}|${marker.versionId ?? ''}`;
  return Math.floor(hashTag(identity)).toString(16).padStart(14, '0');
}

/**
 * Lists the staged data files of a drop. Names starting with `_` or `.` at any level (markers,
 * `.crc` side files) are not data; the gate leaves them where they are.
 */
export async function readDrop(store: ObjectStore, layout: GateLayout, address: DropAddress, marker: ObjectInfo): Promise<Drop> {
  const prefix = stagingPrefix(layout, address);
  const files: StagedFile[] = [];
  for await (const object of store.list(prefix)) {
    const relative = object.key.slice(prefix.length);
    if (!isDataPath(relative)) continue;
    files.push({ key: object.key, relative, size: object.size, etag: object.etag });
  }
  const markerBody = marker.size === 0 || marker.size > MAX_MARKER_BYTES ? new Uint8Array() : await store.read(marker.key, 0, marker.size, { ifMatch: marker.etag });
  return { address, marker, tag: dropTag(marker), files, markerBody };
}

/** A staged path is data unless a segment starts with `_` or `.` (`_SUCCESS`, `.crc`, the marker): those stay in staging. */
export function isDataPath(relative: string): boolean {
  return !relative.split('/').some((segment) => segment.startsWith('_') || segment.startsWith('.'));
}
