import { createHash, randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { constants, link, lstat, mkdir, open, readdir, realpath, rename, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeError, GateError } from '../errors.js';
import type { ObjectInfo, ObjectStore, WriteOptions } from './object-store.js';

/** Temp and lock files start with this; no key segment may, so they never collide or list. */
const RESERVED = '.cg~';
/** A holder only renames and compares under the lock, so a minute-old lock is a crashed process. */
const LOCK_STALE_MS = 60_000;
/** Longer than LOCK_STALE_MS, so a waiter outlives a crashed holder's lock rather than failing. */
const LOCK_WAIT_MS = 90_000;
const ETAG_CACHE_SIZE = 10_000;

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
      await withKeyLock(path, () => commit(path, staged.temp, conditions, () => describe(path, key), where(key)));
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

    async read(key, start, end) {
      const path = pathOf(key);
      checkRange(where(key), start, end);
      // Mirrors the S3 adapter, which cannot express an empty range and so never asks.
      if (end === start) return new Uint8Array(0);
      return guarded('read', key, async () => {
        const handle = await openObject(path, await inside(dirname(path)), `read ${where(key)}`);
        try {
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
          return createHash('md5').update(bytes).digest('hex');
        });
        return finish(path, key, staged, writeOptions);
      });
    },

    async copy(sourceKey, targetKey, writeOptions = {}) {
      const sourcePath = pathOf(sourceKey);
      const path = pathOf(targetKey);
      return guarded('copy', targetKey, async () => {
        const source = await openObject(sourcePath, await inside(dirname(sourcePath)), `copy ${where(sourceKey)}`);
        try {
          // Hash what is copied, from the one open file, so the ETag matches the bytes even if
          // the source is replaced meanwhile.
          const staged = await stageTemp(root, path, inside, (handle) => pump(source, handle));
          return await finish(path, targetKey, staged, writeOptions);
        } finally {
          await source.close();
        }
      });
    },

    async delete(key) {
      const path = pathOf(key);
      return guarded('delete', key, async () => {
        if (!(await inside(dirname(path)))) return;
        await withKeyLock(path, async () => {
          if ((await lstat(path).catch(undefinedIfMissing))?.isFile()) await unlink(path).catch(undefinedIfMissing);
        });
        await prune(root, dirname(path));
      });
    },
  };
}

/** The path of a key, or bad_arguments: a key can only ever name a file strictly below the root. */
function keyPath(root: string, key: string, location: string): string {
  const segments = key.split('/');
  const path = resolve(root, ...segments);
  const safe =
    key !== '' &&
    !isAbsolute(key) &&
    !key.includes('\0') &&
    !key.includes('\\') &&
    segments.every(isKeySegment) &&
    path.startsWith(root.endsWith(sep) ? root : root + sep);
  if (safe) return path;
  throw new GateError('bad_arguments', `${location}: unsafe object key ${JSON.stringify(key)}`, { context: { key } });
}

function isKeySegment(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..' && !segment.startsWith(RESERVED) && !/[\\\0]/.test(segment);
}

/**
 * Whether a directory exists, checking that the deepest existing ancestor really lies in the
 * root: a symlink inside the store must not lead a read or a mkdir outside it.
 */
async function assertInside(root: string, dir: string, location: string): Promise<boolean> {
  const realRoot = await realpath(root).catch(undefinedIfMissing);
  for (let current = dir; realRoot !== undefined && current.startsWith(root); current = dirname(current)) {
    const real = await realpath(current).catch(undefinedIfMissing);
    if (real === undefined) continue;
    if (real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return current === dir;
    throw new GateError('bad_arguments', `${location}: ${dir} leads outside the store through a symbolic link`);
  }
  return false;
}

async function stageTemp(root: string, path: string, inside: (dir: string) => Promise<boolean>, write: (handle: FileHandle) => Promise<string>): Promise<Staged> {
  const dir = dirname(path);
  for (let attempt = 1; ; attempt++) {
    const temp = join(dir, `${RESERVED}tmp~${randomUUID()}`);
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

const lockTails = new Map<string, Promise<void>>();

/** A per-key mutex: a promise chain within this process, an O_EXCL lock file across processes. */
async function withKeyLock<T>(path: string, run: () => Promise<T>): Promise<T> {
  const lockPath = join(dirname(path), `${RESERVED}lock~${createHash('md5').update(basename(path)).digest('hex')}`);
  const previous = lockTails.get(lockPath) ?? Promise.resolve();
  let release = () => {};
  const tail = previous.then(() => new Promise<void>((done) => (release = done)));
  lockTails.set(lockPath, tail);
  await previous;
  try {
    await acquireLockFile(lockPath);
    try {
      return await run();
    } finally {
      await unlink(lockPath).catch(() => undefined);
    }
  } finally {
    release();
    if (lockTails.get(lockPath) === tail) lockTails.delete(lockPath);
  }
}

async function acquireLockFile(lockPath: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
    try {
      return await (await open(lockPath, 'wx')).close();
    } catch (error) {
      if (errorCode(error) === 'ENOENT') await mkdir(dirname(lockPath), { recursive: true });
      else if (errorCode(error) !== 'EEXIST') throw error;
    }
    const held = await stat(lockPath).catch(undefinedIfMissing);
    if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) await unlink(lockPath).catch(() => undefined);
    else if (Date.now() > deadline) throw new GateError('storage_failed', `${lockPath}: lock still held after ${LOCK_WAIT_MS} ms`);
    else if (held) await sleep(wait);
  }
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

/** Opens an object without following a final symlink; anything but a regular file is not_found. */
async function openObject(path: string, parentExists: boolean, what: string): Promise<FileHandle> {
  const missing = (cause?: unknown) => new GateError('not_found', `${what}: no such key`, { cause });
  if (!parentExists) throw missing();
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: unknown) => {
    throw ['ENOENT', 'ENOTDIR', 'ELOOP'].includes(errorCode(error) ?? '') ? missing(error) : error;
  });
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  throw missing();
}

async function readRange(handle: FileHandle, start: number, end: number): Promise<Uint8Array> {
  const { size } = await handle.stat();
  const buffer = new Uint8Array(Math.max(0, Math.min(end, size) - start));
  for (let done = 0; done < buffer.length; ) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, start + done);
    if (bytesRead === 0) return buffer.subarray(0, done);
    done += bytesRead;
  }
  return buffer;
}

/** Copies one open file into another and returns the MD5 hex of what was copied. */
async function pump(source: FileHandle, target: FileHandle | undefined): Promise<string> {
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

/**
 * ETags by path, stamped with inode, size and mtime: this store replaces a file by renaming a
 * new inode over it, and another tool rewriting one in place changes its mtime.
 */
class EtagCache {
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
      const etag = `"${await pump(handle, undefined)}"`;
      this.remember(path, stats, etag);
      return { stats, etag };
    } finally {
      await handle.close();
    }
  }
}

function stamp(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

function checkRange(where: string, start: number, end: number): void {
  if (Number.isSafeInteger(start) && Number.isSafeInteger(end) && start >= 0 && end >= start) return;
  throw new GateError('bad_arguments', `read ${where}: bad byte range [${start}, ${end})`);
}

function unquote(etag: string): string {
  return etag.replace(/^"(.*)"$/, '$1');
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** For lookups where a missing file or directory simply means "no such object". */
function undefinedIfMissing(error: unknown): undefined {
  if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(errorCode(error) ?? '')) return undefined;
  throw error;
}

function storageError(what: string, error: unknown): GateError {
  if (error instanceof GateError) return error;
  return new GateError('storage_failed', `${what}: ${describeError(error)}`, { cause: error });
}
