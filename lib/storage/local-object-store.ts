import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, lstat, mkdir, open, readdir, rename, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { describeError, GateError } from '../errors.js';
import { copyHashing, EtagCache, md5Hex } from './etag-cache.js';
import { errorCode, undefinedIfMissing } from './fs-errors.js';
import { withKeyLock } from './key-lock.js';
import { assertInside, isKeySegment, keyPath, lockPath, tempPath } from './key-paths.js';
import { openObject, readRange } from './local-reads.js';
import { checkRange, pullChunks, type ObjectInfo, type ObjectStore, type CopyOptions, type ReadOptions, type WriteOptions } from './object-store.js';

interface Staged { temp: string; etag: string; stats: Stats }

/**
 * The object-store port over a directory: the directory is the bucket, a key a relative path.
 * Writes land in a temp file and are renamed (or, for create-if-absent, hard-linked) into place,
 * so readers see whole objects only. Every write and delete of a key holds that key's lock, so
 * an ifMatch compare-and-replace cannot interleave with another change to the same key.
 * Unlike S3, a key cannot be both an object and a folder of others (`a` and `a/b`).
 */
export function localObjectStore(options: { root: string }): ObjectStore {
  const root = resolve(options.root);
  const location = `file://${root}`;
  const where = (key: string) => `${location}/${key}`;
  const pathOf = (key: string) => keyPath(root, key, location);
  const etags = new EtagCache();
  const inside = (dir: string) => assertInside(root, dir, location);
  /** The version an open file holds must be the one asked for: the check and the bytes share one inode. */
  const pinned = async (handle: FileHandle, path: string, key: string, ifMatch: string | undefined) => {
    if (ifMatch === undefined) return;
    const stats = await handle.stat();
    const etag = etags.get(path, stats) ?? `"${await copyHashing(handle, undefined)}"`;
    etags.remember(path, stats, etag);
    const unmet = unmetCondition({ ifMatch }, etag);
    if (unmet) throw new GateError('precondition_failed', `${where(key)}: precondition failed (${unmet})`, { context: { location: where(key) } });
  };

  const guarded = async <T>(op: string, key: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw storageError(`${op} ${where(key)}`, error);
    }
  };

  const describe = async (path: string, key: string): Promise<ObjectInfo | undefined> => {
    const stats = await lstat(path).catch(undefinedIfMissing);
    if (!stats?.isFile()) return undefined;
    const cached = etags.get(path, stats);
    const found = cached ? { stats, etag: cached } : await etags.hash(path);
    return found && { key, size: found.stats.size, etag: found.etag, lastModified: found.stats.mtime };
  };

  const finish = async (path: string, key: string, staged: Staged, conditions: WriteOptions) => {
    try {
      await withKeyLock(lockPath(path), () => commit(path, staged.temp, conditions, () => describe(path, key), where(key)));
      etags.remember(path, staged.stats, staged.etag);
      return { etag: staged.etag };
    } finally {
      await unlink(staged.temp).catch(() => undefined);
    }
  };

  return {
    location,
    async head(key) {
      const path = pathOf(key);
      return guarded('head', key, async () => ((await inside(dirname(path))) ? describe(path, key) : undefined));
    },

    async read(key, start, end, readOptions: ReadOptions = {}) {
      const path = pathOf(key);
      checkRange(where(key), start, end);
      // Mirrors the S3 adapter, which cannot express an empty range and so never asks.
      if (end === start) return new Uint8Array(0);
      return guarded('read', key, async () => {
        const handle = await openObject(path, await inside(dirname(path)), `read ${where(key)}`);
        try {
          await pinned(handle, path, key, readOptions.ifMatch);
          return await readRange(handle, start, end);
        } finally {
          await handle.close();
        }
      });
    },

    list(prefix) {
      return walk(root, '', prefix, (path, key) => guarded('list', key, () => describe(path, key)));
    },

    async put(key, body, writeOptions = {}) {
      const path = pathOf(key);
      const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      return guarded('put', key, async () => {
        const staged = await stageTemp(root, path, inside, async (handle) => {
          await handle.writeFile(bytes);
          return md5Hex(bytes);
        });
        return finish(path, key, staged, writeOptions);
      });
    },

    /** Streams into the temp file put uses, hashing as it writes: the ETag is the one put gives the same bytes. */
    async upload(key, chunks) {
      const path = pathOf(key);
      return guarded('upload', key, async () => {
        const staged = await stageTemp(root, path, inside, (handle) => writeHashing(handle, pullChunks(chunks, where(key))));
        return { ...(await finish(path, key, staged, {})), size: staged.stats.size };
      });
    },

    async copy(sourceKey, targetKey, writeOptions: CopyOptions = {}) {
      const sourcePath = pathOf(sourceKey);
      const path = pathOf(targetKey);
      return guarded('copy', targetKey, async () => {
        const source = await openObject(sourcePath, await inside(dirname(sourcePath)), `copy ${where(sourceKey)}`);
        try {
          await pinned(source, sourcePath, sourceKey, writeOptions.sourceIfMatch);
          // Hash what is copied, from the one open file, so the ETag matches the bytes even if
          // the source is replaced meanwhile.
          const staged = await stageTemp(root, path, inside, (handle) => copyHashing(source, handle));
          return await finish(path, targetKey, staged, writeOptions);
        } finally {
          await source.close();
        }
      });
    },

    async delete(key, deleteOptions: ReadOptions = {}) {
      const path = pathOf(key);
      return guarded('delete', key, async () => {
        if (!(await inside(dirname(path)))) return;
        await withKeyLock(lockPath(path), async () => {
          const current = await describe(path, key);
          if (!current) return;
          const unmet = deleteOptions.ifMatch === undefined ? undefined : unmetCondition({ ifMatch: deleteOptions.ifMatch }, current.etag);
          if (unmet) throw new GateError('precondition_failed', `${where(key)}: precondition failed (${unmet})`, { context: { location: where(key) } });
          await unlink(path).catch(undefinedIfMissing);
        });
        await prune(root, dirname(path));
      });
    },
  };
}

async function stageTemp(root: string, path: string, inside: (dir: string) => Promise<boolean>, write: (handle: FileHandle) => Promise<string>): Promise<Staged> {
  const dir = dirname(path);
  for (let attempt = 1; ; attempt++) {
    const temp = tempPath(dir);
    try {
      await mkdir(root, { recursive: true });
      if (!(await inside(dir))) await mkdir(dir, { recursive: true });
      const handle = await open(temp, 'wx');
      try {
        const etag = `"${await write(handle)}"`;
        await handle.sync();
        return { temp, etag, stats: await handle.stat() };
      } finally {
        await handle.close();
      }
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      // A concurrent delete may prune the directory between mkdir and open: make it again.
      if (errorCode(error) !== 'ENOENT' || attempt === 3) throw error;
    }
  }
}

/** Appends each chunk to a file and returns the MD5 hex of them all. */
async function writeHashing(handle: FileHandle, chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of chunks) {
    hash.update(chunk);
    await handle.writeFile(chunk); // from the current position, however many writes it takes
  }
  return hash.digest('hex');
}

/** Under the key's lock: check the conditions against what is there, then move the temp into place. */
async function commit(path: string, temp: string, conditions: WriteOptions, current: () => Promise<ObjectInfo | undefined>, where: string): Promise<void> {
  const failed = (why: string) => new GateError('precondition_failed', `${where}: precondition failed (${why})`, { context: { location: where } });
  const conditional = conditions.ifMatch !== undefined || conditions.ifNoneMatch !== undefined;
  const unmet = conditional ? unmetCondition(conditions, (await current())?.etag) : undefined;
  if (unmet) throw failed(unmet);
  if (conditions.ifNoneMatch !== '*') return rename(temp, path);
  // link() fails if the target exists, atomically, even against a process that ignores our lock.
  await link(temp, path).catch((error: unknown) => {
    throw errorCode(error) === 'EEXIST' ? failed('the key exists') : error;
  });
}

function unmetCondition({ ifMatch, ifNoneMatch }: WriteOptions, etag: string | undefined): string | undefined {
  if (ifNoneMatch === '*' && etag !== undefined) return 'the key exists';
  if (ifMatch === undefined) return undefined;
  if (etag === undefined) return 'the key does not exist';
  return ifMatch === '*' || unquote(etag) === unquote(ifMatch) ? undefined : `its ETag is ${etag}, not ${ifMatch}`;
}

/** Lists keys under a prefix in S3 order (UTF-8 bytes) by sorting each directory as `name/`. */
async function* walk(dir: string, dirKey: string, prefix: string, describe: (path: string, key: string) => Promise<ObjectInfo | undefined>): AsyncGenerator<ObjectInfo> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return [];
    throw storageError(`list ${dir}`, error);
  });
  const candidates = entries
    .filter((entry) => isKeySegment(entry.name) && (entry.isFile() || entry.isDirectory()))
    .map((entry) => ({ entry, key: `${dirKey}${entry.name}${entry.isDirectory() ? '/' : ''}` }))
    .filter(({ entry, key }) => key.startsWith(prefix) || (entry.isDirectory() && prefix.startsWith(key)))
    .map((candidate) => ({ ...candidate, bytes: Buffer.from(candidate.key, 'utf8') }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  for (const { entry, key } of candidates) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path, key, prefix, describe);
    else {
      const info = await describe(path, key);
      if (info) yield info;
    }
  }
}

/** Removes directories left empty by a delete, stopping at the first non-empty one or the root. */
async function prune(root: string, dir: string): Promise<void> {
  for (let current = dir; current !== root && current.startsWith(root + sep); current = dirname(current)) {
    const removed = await rmdir(current).then(() => true, () => false);
    if (!removed) return;
  }
}

function unquote(etag: string): string {
  return etag.replace(/^"(.*)"$/, '$1');
}

function storageError(what: string, error: unknown): GateError {
  if (error instanceof GateError) return error;
  return new GateError('storage_failed', `${what}: ${describeError(error)}`, { cause: error });
}
