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

export type ParentMessage = { type: 'start'; options: EmulatorStartOptions } | { type: 'stop' };

export type ChildMessage =
  | { type: 'ready'; port: number }
  | { type: 'failed'; message: string; code?: string }
  | { type: 'object-created'; event: ObjectCreatedEvent };

export const EMULATOR_HOST = '127.0.0.1';
