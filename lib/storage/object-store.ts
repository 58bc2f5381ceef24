import { GateError } from '../errors.js';

/**
 * The object-store port: what the gate needs from S3, and nothing more. Keys are full object
 * keys within one bucket. Adapters: S3 (any S3-compatible endpoint) and a local directory.
 *
 * Conditional writes follow S3: `ifNoneMatch: '*'` creates only when the key is absent,
 * `ifMatch: etag` replaces only that version; a failed condition throws
 * GateError('precondition_failed'). A missing key on read or copy throws GateError('not_found').
 */
export interface ObjectStore {
  /** A name for messages and reports, e.g. `s3://lake` or `file:///srv/lake`. */
  readonly location: string;
  head(key: string): Promise<ObjectInfo | undefined>;
  /** Bytes [start, end) of an object; with `ifMatch`, of that version only (else precondition_failed). */
  read(key: string, start: number, end: number, options?: ReadOptions): Promise<Uint8Array>;
  /** Every object under a prefix, in key order, however many pages that takes. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  put(key: string, body: Uint8Array | string, options?: WriteOptions & { contentType?: string }): Promise<{ etag: string }>;
  copy(sourceKey: string, targetKey: string, options?: CopyOptions): Promise<{ etag: string }>;
  /** Deleting a key that does not exist succeeds, as on S3; with `ifMatch`, only that version is deleted. */
  delete(key: string, options?: ReadOptions): Promise<void>;
}

export interface ObjectInfo {
  readonly key: string;
  readonly size: number;
  /** Quoted as S3 returns it, e.g. `"9b2cf535f27731c974343645a3985328"`. */
  readonly etag: string;
  readonly lastModified: Date;
  readonly versionId?: string;
}

export interface WriteOptions {
  readonly ifNoneMatch?: '*';
  readonly ifMatch?: string;
}

/** Pins a read or a delete to one version of the object: its ETag as listed. */
export interface ReadOptions {
  readonly ifMatch?: string;
}

export interface CopyOptions extends WriteOptions {
  /** Copies only this version of the source (S3's x-amz-copy-source-if-match), else precondition_failed. */
  readonly sourceIfMatch?: string;
  /** The source's size when the caller knows it: a big object is copied in parts (S3 copies at most 5 GB at once). */
  readonly sourceSize?: number;
}

export async function readWhole(store: ObjectStore, key: string): Promise<Uint8Array | undefined> {
  const info = await store.head(key);
  return info ? store.read(key, 0, info.size) : undefined;
}

/**
 * An object's bytes with the ETag they have, read in one version even if it is replaced between
 * the HEAD and the GET (the read is pinned, and tried again on the newer version). Undefined
 * when the key is absent. A record the gate replaces by compare-and-swap is read this way.
 */
export async function readVersion(store: ObjectStore, key: string): Promise<{ bytes: Uint8Array; etag: string } | undefined> {
  for (;;) {
    const info = await store.head(key);
    if (!info) return undefined;
    try {
      return { bytes: await store.read(key, 0, info.size, { ifMatch: info.etag }), etag: info.etag };
    } catch (error) {
      if (!(error instanceof GateError && (error.code === 'precondition_failed' || error.code === 'not_found'))) throw error;
    }
  }
}

/** Rejects a byte range no store can serve: [start, end) of whole, non-negative offsets. */
export function checkRange(where: string, start: number, end: number): void {
  if (Number.isSafeInteger(start) && Number.isSafeInteger(end) && start >= 0 && end >= start) return;
  throw new GateError('bad_arguments', `read ${where}: bad byte range [${start}, ${end})`);
}
