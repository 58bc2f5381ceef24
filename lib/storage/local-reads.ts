/** How the local object store (local-object-store.ts) reads the file of an object. */

import { constants, open, type FileHandle } from 'node:fs/promises';
import { GateError } from '../errors.js';
import { isMissing } from './fs-errors.js';

/** Opens an object without following a final symlink; anything but a regular file is not_found. */
export async function openObject(path: string, parentExists: boolean, what: string): Promise<FileHandle> {
  const missing = (cause?: unknown) => new GateError('not_found', `${what}: no such key`, { cause });
  if (!parentExists) throw missing();
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: unknown) => {
    throw isMissing(error) ? missing(error) : error;
  });
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  throw missing();
}

export async function readRange(handle: FileHandle, start: number, end: number): Promise<Uint8Array> {
  const { size } = await handle.stat();
  const buffer = new Uint8Array(Math.max(0, Math.min(end, size) - start));
  for (let done = 0; done < buffer.length; ) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, start + done);
    if (bytesRead === 0) return buffer.subarray(0, done);
    done += bytesRead;
  }
  return buffer;
}
