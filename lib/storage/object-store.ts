import { describeError, GateError } from '../errors.js';

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
  /**
   * Writes a body handed out in chunks without holding it whole (S3: a multipart upload), so a
   * file the gate rewrites costs a few chunks of memory, not its size. The object appears whole
   * or not at all; a chunk must not change once yielded. An error the chunks throw ends the
   * upload as a GateError (see pullChunks). Optional so that wrappers and test stores need not
   * implement it: call it through uploadChunks, which falls back to `put`.
   */
  upload?(key: string, chunks: AsyncIterable<Uint8Array>, options?: UploadOptions): Promise<{ etag: string; size: number }>;
}

export interface UploadOptions {
  readonly contentType?: string;
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
  const read = await readVersionUpTo(store, key, Infinity);
  return read && 'bytes' in read ? read : undefined;
}

/**
 * An object's bytes and ETag, read in one version, or only its size and ETag when it is bigger
 * than `limit` (not read at all); undefined when absent.
 */
export async function readVersionUpTo(store: ObjectStore, key: string, limit: number): Promise<{ bytes: Uint8Array; etag: string } | { size: number; etag: string } | undefined> {
  for (;;) {
    const info = await store.head(key);
    if (!info) return undefined;
    if (info.size > limit) return { size: info.size, etag: info.etag };
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

/**
 * Writes chunks to a key through the store's streaming `upload` when it has one, else joins them
 * and puts the whole body. Both exist because only some stores can stream: the adapters do, while
 * the many wrappers and test stores implement the port's required methods only, and a body of
 * chunks must still reach them (with the memory of the whole body, which for them is small).
 */
export async function uploadChunks(store: ObjectStore, key: string, chunks: AsyncIterable<Uint8Array>, options: UploadOptions = {}): Promise<{ etag: string; size: number }> {
  if (store.upload) return store.upload(key, chunks, options);
  const parts: Uint8Array[] = [];
  for await (const chunk of pullChunks(chunks, `${store.location}/${key}`)) parts.push(chunk);
  const body = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  const { etag } = await store.put(key, body, options);
  return { etag, size: body.length };
}

/**
 * The chunks of an upload, with any error they throw as a GateError naming the upload (a
 * GateError passes as it is). A producer's failure then reads like any failed write, and can
 * never pass for the store's own, such as the ENOENT the local store answers by trying again.
 */
export async function* pullChunks(chunks: AsyncIterable<Uint8Array>, where: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of chunks) yield chunk;
  } catch (error) {
    if (error instanceof GateError) throw error;
    throw new GateError('storage_failed', `upload ${where}: the chunks failed: ${describeError(error)}`, { cause: error, context: { location: where } });
  }
}
