import { mkdir, open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GateError } from '../errors.js';
import { KeyedMutex } from './keyed-mutex.js';
import { errorCode, undefinedIfMissing } from './fs-errors.js';

/** A holder only renames and compares under the lock, so a minute-old lock is a crashed process. */
const LOCK_STALE_MS = 60_000;
/** Longer than LOCK_STALE_MS, so a waiter outlives a crashed holder's lock rather than failing. */
const LOCK_WAIT_MS = 90_000;

/** Shared by every store in this process, so two stores on one directory queue here rather than spin on the file. */
const inProcess = new KeyedMutex();

/** A per-key mutex: a promise chain within this process, an O_EXCL lock file across processes. */
export function withKeyLock<T>(lockPath: string, run: () => Promise<T>): Promise<T> {
  return inProcess.run(lockPath, async () => {
    await acquireLockFile(lockPath);
    try {
      return await run();
    } finally {
      await unlink(lockPath).catch(() => undefined);
    }
  });
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
