import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Writes through a temporary name and renames into place, so a reader (another test file, or a
 * second run sharing the cache) never sees half a Parquet file.
 */
export async function writeAtomically(path: string, write: (tempPath: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await write(temp);
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}

/** A scratch path in the system's temporary folder for an intermediate file (removed by its user). */
export function scratchPath(suffix: string): string {
  return join(tmpdir(), `writer-scratch-${randomBytes(6).toString('hex')}.${suffix}`);
}
