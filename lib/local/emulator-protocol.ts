import type { PageResponse } from '../status/gate-pages.js';

export type { PageResponse } from '../status/gate-pages.js';

/** Messages between `startS3Emulator` and its child process (JSON over the IPC channel). */

export interface ObjectCreatedEvent {
  readonly bucket: string;
  /** The raw key, decoded (not the URL-encoded form S3 notifications carry). */
  readonly key: string;
  readonly size: number;
  /** Without surrounding quotes. */
  readonly etag: string;
  /** e.g. `ObjectCreated:Put`, `ObjectCreated:Copy`. */
  readonly eventName: string;
  readonly eventTime: string;
}

export interface EmulatorStartOptions {
  readonly dir: string;
  readonly buckets: readonly string[];
  readonly port: number;
}


export type ParentMessage = { type: 'start'; options: EmulatorStartOptions } | { type: 'stop' } | ({ type: 'page-response'; id: number } & PageResponse);

export type ChildMessage =
  | { type: 'ready'; port: number }
  | { type: 'failed'; message: string; code?: string }
  | { type: 'object-created'; event: ObjectCreatedEvent }
  | { type: 'page-request'; id: number; url: string };

/**
 * The gate's own pages on the endpoint (`/_gate/`). No bucket can be named `_gate` (S3 bucket
 * names start with a letter or digit), so these paths never shadow an S3 request.
 */
export const GATE_PAGES = '/_gate';

export function isGatePage(url: string): boolean {
  return url === GATE_PAGES || url.startsWith(`${GATE_PAGES}/`) || url.startsWith(`${GATE_PAGES}?`);
}

export const EMULATOR_HOST = '127.0.0.1';
