import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The slice of `@20minutes/s3rver` (and of the Koa it extends) that the emulator touches. The
 * package ships no types; declaring only what we use keeps `any` out of our code.
 */

export type HeaderValue = string | string[] | undefined;

export interface KoaContext {
  readonly method: string;
  /** Still percent-encoded, as on the wire; setting it re-routes the request (query kept). */
  path: string;
  readonly query: Record<string, HeaderValue>;
  readonly headers: Record<string, HeaderValue>;
  status: number;
  type: string;
  body: unknown;
  set(field: string, value: string): void;
}

export type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

/** What the store knows of an object; `etag` is quoted. */
export interface S3rverMetadata {
  readonly etag: string;
  readonly 'content-length': number;
  readonly 'last-modified'?: string;
}

/** s3rver's filesystem store; `getMetadata` rejects with ENOENT when the key is absent. */
export interface S3rverStore {
  getMetadata(bucket: string, key: string): Promise<S3rverMetadata>;
  getBucketPath(bucket: string): string;
  /** Null when there is no such bucket. */
  getBucket(bucket: string): Promise<unknown>;
  /** A bucket's (keyless) or object's configuration document, such as `cors` or `website`; null when absent. */
  getSubresource(bucket: string, key: string | undefined, type: string): Promise<unknown>;
  /** Called by the bucket controller for ListObjects (V1 and V2) and by DeleteBucket. */
  listObjects(bucket: string, options: S3rverListOptions): Promise<S3rverListing>;
}

/** An object as s3rver's PUT controller hands it to the store. */
export interface S3rverPutObject {
  readonly bucket: string;
  readonly key: string;
  readonly metadata: Record<string, string>;
  readonly content: Buffer | NodeJS.ReadableStream;
  /** Stored as the ETag instead of the body's MD5 (a completed multipart upload's). */
  readonly etag?: string;
}

/** A part as CompleteMultipartUpload lists it; `etag` without quotes. */
export interface S3rverPart {
  readonly number: number;
  readonly etag: string;
}

/** The filesystem store's writing methods, which the emulator replaces (see atomic-object-files.ts). */
export interface S3rverFiles extends S3rverStore {
  /** The file of one of a key's resources (`object`, `object.md5`, `metadata.json`); keyless: the bucket's (`uploads`). */
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putObject(object: S3rverPutObject): Promise<{ size: number; md5: string }>;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
  copyObject(sourceBucket: string, sourceKey: string, bucket: string, key: string, replacement?: Record<string, string>): Promise<S3rverMetadata>;
  deleteObject(bucket: string, key: string): Promise<void>;
  /** Null when absent; `range` bounds are inclusive, and the object carries it back when one was asked for. */
  getObject(bucket: string, key: string, range?: { start?: number; end?: number }): Promise<S3rverObject | null>;
  /** Assembles an upload's parts into its object; `md5` is the ETag to answer with. */
  putObjectMultipart(bucket: string, uploadId: string, parts: S3rverPart[]): Promise<{ size: number; md5: string }>;
}

/** As the bucket controller passes them: absent parameters are undefined, `startAfter` is already the decoded token or marker. */
export interface S3rverListOptions {
  readonly prefix?: string;
  readonly delimiter?: string;
  readonly startAfter?: string;
  readonly maxKeys?: number;
}

/** The controller reads `key`, `size`, `lastModifiedDate` and `metadata.etag` of each listed object. */
export interface S3rverObject {
  readonly key: string;
  readonly metadata: { readonly etag: string };
  readonly size: number;
  readonly lastModifiedDate: Date;
}

/** The controller turns the last of `objects` into NextContinuationToken / NextMarker when truncated. */
export interface S3rverListing {
  readonly objects: S3rverObject[];
  readonly commonPrefixes: string[];
  readonly isTruncated: boolean;
}

/** One record of the S3-notification-shaped payload s3rver emits as `event`. */
export interface S3rverEventRecord {
  readonly eventTime: string;
  readonly eventName: string;
  readonly s3: {
    readonly bucket: { readonly name: string };
    /** `key` is already decoded; `eTag` is missing on copies. */
    readonly object: { readonly key: string; readonly size?: number; readonly eTag?: string };
  };
}

export interface S3rverOptions {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  allowMismatchedSignatures: boolean;
  vhostBuckets: boolean;
  configureBuckets: { name: string; configs: string[] }[];
}

export interface S3rverApp {
  readonly store: S3rverFiles;
  /** Koa's middleware array; composed when `callback()` is called. */
  readonly middleware: KoaMiddleware[];
  configureBuckets(): Promise<unknown>;
  callback(): (request: IncomingMessage, response: ServerResponse) => void;
  on(event: 'event', listener: (payload: { Records: S3rverEventRecord[] }) => void): this;
}

type S3rverConstructor = new (options: S3rverOptions) => S3rverApp;

function requireS3rver<T>(path: string): T {
  return createRequire(import.meta.url)(path) as T;
}

export function createS3rver(options: S3rverOptions): S3rverApp {
  const S3rver = requireS3rver<S3rverConstructor>('@20minutes/s3rver');
  return new S3rver(options);
}

/** s3rver's own object model, so listed and read objects are exactly what its controllers expect. */
export function s3rverObjectFactory(): (bucket: string, key: string, metadata: S3rverMetadata, content?: NodeJS.ReadableStream | null) => S3rverObject {
  type S3ObjectConstructor = new (bucket: string, key: string, content: NodeJS.ReadableStream | null, metadata: S3rverMetadata) => S3rverObject;
  const S3Object = requireS3rver<S3ObjectConstructor>('@20minutes/s3rver/lib/models/object.js');
  return (bucket, key, metadata, content = null) => new S3Object(bucket, key, content, metadata);
}

/** The metadata s3rver keeps of a PUT: its allowed standard headers and every `x-amz-meta-*`. */
export function s3rverAllowedMetadata(): (metadata: Record<string, string>) => Record<string, string> {
  const { ALLOWED_METADATA } = requireS3rver<{ ALLOWED_METADATA: readonly string[] }>('@20minutes/s3rver/lib/models/object.js');
  const allowed = new Set(ALLOWED_METADATA);
  return (metadata) => Object.fromEntries(Object.entries(metadata).filter(([name]) => allowed.has(name) || name.startsWith('x-amz-meta-')));
}

/** s3rver's error type: thrown anywhere in a request, its renderer answers with S3's error XML and status for `code`. */
export function s3rverError(code: string, message: string, detail: Record<string, string | number> = {}): Error {
  type S3ErrorConstructor = new (code: string, message: string, detail: Record<string, string | number>) => Error;
  const S3Error = requireS3rver<S3ErrorConstructor>('@20minutes/s3rver/lib/models/error.js');
  return new S3Error(code, message, detail);
}

/** The module whose `getBucket` serves ListObjects; routes look it up on every request, so it can be wrapped. */
export function s3rverBucketController(): { getBucket(ctx: KoaContext): Promise<void> } {
  return requireS3rver('@20minutes/s3rver/lib/controllers/bucket.js');
}

interface S3rverAccount {
  readonly accessKeys: Map<string, string>;
}

/**
 * Lets any access key in: local mode is for people pointing their usual S3 client (with
 * whatever credentials it has) at 127.0.0.1. s3rver checks signatures only against keys it
 * knows, and `allowMismatchedSignatures` already accepts a wrong one, so an unknown key is
 * treated as its built-in dummy account.
 */
export function acceptAnyAccessKey(): void {
  const { registry: known, DUMMY_ACCOUNT } = requireS3rver<{ registry: Map<string, S3rverAccount>; DUMMY_ACCOUNT: S3rverAccount }>('@20minutes/s3rver/lib/models/account.js');
  const lookUp = known.get.bind(known);
  known.get = (id: string) => lookUp(id) ?? DUMMY_ACCOUNT;
  const keys = DUMMY_ACCOUNT.accessKeys;
  const secret = keys.get.bind(keys);
  keys.get = (id: string) => secret(id) ?? 'S3RVER';
}
