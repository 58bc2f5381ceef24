import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The slice of `@20minutes/s3rver` (and of the Koa it extends) that the emulator touches. The
 * package ships no types; declaring only what we use keeps `any` out of our code.
 */

export type HeaderValue = string | string[] | undefined;

export interface KoaContext {
  readonly method: string;
  /** Still percent-encoded, as on the wire. */
  readonly path: string;
  readonly query: Record<string, HeaderValue>;
  readonly headers: Record<string, HeaderValue>;
  status: number;
  type: string;
  body: unknown;
  set(field: string, value: string): void;
}

export type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

/** s3rver's filesystem store; `getMetadata` rejects with ENOENT when the key is absent. */
export interface S3rverStore {
  getMetadata(bucket: string, key: string): Promise<{ etag: string; 'content-length': number }>;
}

/** How the store says a key is absent. */
export function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
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
  readonly store: S3rverStore;
  /** Koa's middleware array; composed when `callback()` is called. */
  readonly middleware: KoaMiddleware[];
  configureBuckets(): Promise<unknown>;
  callback(): (request: IncomingMessage, response: ServerResponse) => void;
  on(event: 'event', listener: (payload: { Records: S3rverEventRecord[] }) => void): this;
}

type S3rverConstructor = new (options: S3rverOptions) => S3rverApp;

export function createS3rver(options: S3rverOptions): S3rverApp {
  const require = createRequire(import.meta.url);
  const S3rver = require('@20minutes/s3rver') as S3rverConstructor;
  return new S3rver(options);
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
  const require = createRequire(import.meta.url);
  const { registry: known, DUMMY_ACCOUNT } = require('@20minutes/s3rver/lib/models/account.js') as { registry: Map<string, S3rverAccount>; DUMMY_ACCOUNT: S3rverAccount };
  const lookUp = known.get.bind(known);
  known.get = (id: string) => lookUp(id) ?? DUMMY_ACCOUNT;
  const keys = DUMMY_ACCOUNT.accessKeys;
  const secret = keys.get.bind(keys);
  keys.get = (id: string) => secret(id) ?? 'S3RVER';
}
