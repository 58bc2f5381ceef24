/**
 * Where the local store keeps a key: its path below the root, which no key may escape, and the
 * names of the temp and lock files beside it, which no key can take.
 */
import { createHash, randomUUID } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { GateError } from '../errors.js';
import { undefinedIfMissing } from './fs-errors.js';

/** Temp and lock files start with this; no key segment may, so they never collide or list. */
const RESERVED = '.cg~';

/** The path of a key, or bad_arguments: a key can only ever name a file strictly below the root. */
export function keyPath(root: string, key: string, location: string): string {
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

export function isKeySegment(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..' && !segment.startsWith(RESERVED) && !/[\\\0]/.test(segment);
}

/**
 * Whether a directory exists, checking that the deepest existing ancestor really lies in the
 * root: a symlink inside the store must not lead a read or a mkdir outside it.
 */
export async function assertInside(root: string, dir: string, location: string): Promise<boolean> {
  const realRoot = await realpath(root).catch(undefinedIfMissing);
  for (let current = dir; realRoot !== undefined && current.startsWith(root); current = dirname(current)) {
    const real = await realpath(current).catch(undefinedIfMissing);
    if (real === undefined) continue;
    if (real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return current === dir;
    throw new GateError('bad_arguments', `${location}: ${dir} leads outside the store through a symbolic link`);
  }
  return false;
}

/** A fresh temp file name in a key's directory, for a write to land in before it is renamed. */
export function tempPath(dir: string): string {
  return join(dir, `${RESERVED}tmp~${randomUUID()}`);
}

/** The lock file of a key: beside it, named by a hash so that any key segment fits a file name. */
export function lockPath(path: string): string {
  return join(dirname(path), `${RESERVED}lock~${createHash('md5').update(basename(path)).digest('hex')}`);
}
