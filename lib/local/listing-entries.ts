import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../storage/fs-errors.js';
import { folderKeyPart, isObjectFileName, objectKeyPart } from './key-names.js';

export interface ListingScope {
  readonly prefix: string;
  /** '' for none. */
  readonly delimiter: string;
  readonly startAfter: string;
}

/** What a listing may return, unsorted: keys, and the common prefixes other keys roll up into. */
export interface ListingEntries {
  readonly keys: string[];
  readonly commonPrefixes: Set<string>;
}

/** S3's order: keys compared as UTF-8 bytes, which is neither locale nor UTF-16 code-unit order. */
function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Walks a bucket's folders for the entries under a prefix. Order does not matter here (the
 * caller sorts), so the walk only has to skip what cannot be listed: folders off the prefix,
 * folders wholly at or before `startAfter`, and folders inside a common prefix, which are only
 * searched for one object to show that the prefix is not empty. Names are decoded with
 * key-names.ts; a folder's key need not end in `/` (a long segment's first pieces), it is only
 * ever used as the prefix every key below it shares.
 */
export async function collectEntries(bucketDir: string, scope: ListingScope): Promise<ListingEntries> {
  const found: ListingEntries = { keys: [], commonPrefixes: new Set() };
  const visit = async (dir: string, dirKey: string): Promise<void> => {
    for (const entry of await readEntries(dir)) {
      const part = entry.isFile() ? objectKeyPart(entry.name) : entry.isDirectory() ? folderKeyPart(entry.name) : undefined;
      if (part === undefined) continue; // s3rver's .md5 and metadata files, uploads, files being written
      if (entry.isFile()) addKey(found, scope, dirKey + part);
      else await visitFolder(join(dir, entry.name), dirKey + part);
    }
  };
  const visitFolder = async (dir: string, folderKey: string): Promise<void> => {
    const { prefix, startAfter } = scope;
    if (!folderKey.startsWith(prefix) && !prefix.startsWith(folderKey)) return;
    const rolledUp = commonPrefixOf(folderKey, scope);
    if (rolledUp === undefined) {
      if (!precedesEverythingBelow(startAfter, folderKey)) await visit(dir, folderKey);
    } else if (!found.commonPrefixes.has(rolledUp) && compareUtf8(rolledUp, startAfter) > 0 && (await holdsObject(dir))) {
      found.commonPrefixes.add(rolledUp);
    }
  };
  await visit(bucketDir, '');
  return found;
}

function addKey(found: ListingEntries, scope: ListingScope, key: string): void {
  if (!key.startsWith(scope.prefix)) return;
  const rolledUp = commonPrefixOf(key, scope);
  if (rolledUp === undefined) found.keys.push(key);
  else found.commonPrefixes.add(rolledUp);
}

/**
 * The common prefix a key (or every key below a folder) rolls up into: up to and including the
 * first delimiter after the prefix. For a folder, only a delimiter wholly inside its own key
 * part counts; one that might straddle into the keys below it is settled key by key.
 */
function commonPrefixOf(key: string, { prefix, delimiter }: ListingScope): string | undefined {
  if (delimiter === '' || !key.startsWith(prefix)) return undefined;
  const at = key.indexOf(delimiter, prefix.length);
  return at === -1 ? undefined : key.slice(0, at + delimiter.length);
}

/** Whether every key starting with `folderKey` sorts at or before `startAfter`. */
function precedesEverythingBelow(startAfter: string, folderKey: string): boolean {
  return compareUtf8(startAfter, folderKey) > 0 && !startAfter.startsWith(folderKey);
}

async function holdsObject(dir: string): Promise<boolean> {
  const entries = await readEntries(dir);
  if (entries.some(isObjectFile)) return true;
  for (const entry of entries) {
    if (entry.isDirectory() && folderKeyPart(entry.name) !== undefined && (await holdsObject(join(dir, entry.name)))) return true;
  }
  return false;
}

function isObjectFile(entry: Dirent): boolean {
  return entry.isFile() && isObjectFileName(entry.name) && objectKeyPart(entry.name) !== undefined;
}

/** A folder emptied and removed by a concurrent delete simply has nothing to list. */
async function readEntries(dir: string): Promise<Dirent[]> {
  return readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return [];
    throw error;
  });
}
