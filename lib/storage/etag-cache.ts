import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { constants, open, type FileHandle } from 'node:fs/promises';
import { undefinedIfMissing } from './fs-errors.js';

const ETAG_CACHE_SIZE = 10_000;

/** The MD5 hex of a body, which is what S3 gives a single-part object as its ETag. */
export function md5Hex(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

/**
 * ETags by path, stamped with inode, size and mtime: this store replaces a file by renaming a
 * new inode over it, and another tool rewriting one in place changes its mtime.
 */
export class EtagCache {
  private readonly entries = new Map<string, { stamp: string; etag: string }>();

  get(path: string, stats: Stats): string | undefined {
    const hit = this.entries.get(path);
    return hit?.stamp === stamp(stats) ? hit.etag : undefined;
  }

  remember(path: string, stats: Stats, etag: string): void {
    this.entries.delete(path);
    this.entries.set(path, { stamp: stamp(stats), etag });
    if (this.entries.size > ETAG_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Hashes through one open handle so the stamp and the bytes come from the same file. */
  async hash(path: string): Promise<{ stats: Stats; etag: string } | undefined> {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(undefinedIfMissing);
    if (!handle) return undefined;
    try {
      const stats = await handle.stat();
      const etag = `"${await copyHashing(handle, undefined)}"`;
      this.remember(path, stats, etag);
      return { stats, etag };
    } finally {
      await handle.close();
    }
  }
}

/** Copies one open file into another (or nowhere) and returns the MD5 hex of what was copied. */
export async function copyHashing(source: FileHandle, target: FileHandle | undefined): Promise<string> {
  const hash = createHash('md5');
  const buffer = Buffer.allocUnsafe(1 << 20);
  for (let position = 0; ; ) {
    const { bytesRead } = await source.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return hash.digest('hex');
    hash.update(buffer.subarray(0, bytesRead));
    if (target) await target.write(buffer, 0, bytesRead);
    position += bytesRead;
  }
}

function stamp(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}
