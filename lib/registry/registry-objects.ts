/** The registry's objects as read: pointers checked against their keys, versions by their bytes and size. */
import type { LoadOptions } from '../contract/load-contract.js';
import type { Contract } from '../contract/model.js';
import { readVersionUpTo, type ObjectStore } from '../storage/object-store.js';
import { isPointerKey, MAX_POINTER_BYTES, MAX_VERSION_BYTES, misplacedPointer, parsePointer, pointerKey, type RegistryPointer } from './registry-layout.js';
import { sha256Hex } from '../storage/content-hash.js';

/** A version in force: the contract, the pointer that named it, and the pointer's ETag. */
export interface RegisteredContract {
  readonly contract: Contract;
  readonly pointer: RegistryPointer;
  readonly pointerEtag: string;
}

export interface RegistryReadOptions {
  /** @default `_contracts/` */
  readonly prefix?: string;
  /** Defaults for what registered ODCS contracts leave out, as `serve --default-notify` gives them. */
  readonly loadOptions?: LoadOptions;
}

/** A pointer as read, checked against its key: `problem` says why it is not to be trusted (then `pointer` names nothing). */
export interface PointerRead {
  readonly pointer: RegistryPointer;
  readonly etag: string;
  readonly problem?: string;
}

/** The pointer of one major, with the ETag a replacement must match; undefined when none is registered. */
export async function readPointer(store: ObjectStore, prefix: string, name: string, major: number): Promise<PointerRead | undefined> {
  const key = pointerKey(prefix, name, major);
  const read = await readVersionUpTo(store, key, MAX_POINTER_BYTES);
  if (!read) return undefined;
  const where = `${store.location}/${key}`;
  if ('size' in read) return broken(key, name, major, read.etag, `${where} is ${read.size} bytes: a registry pointer is at most ${MAX_POINTER_BYTES}; it is ignored (publish the contract again to replace it)`);
  const pointer = parsePointer(new TextDecoder().decode(read.bytes));
  if (!pointer) return broken(key, name, major, read.etag, `${where}: not a registry pointer (expected contract-gate/registry-pointer@1 JSON)`);
  const misplaced = misplacedPointer(prefix, name, major, pointer);
  if (misplaced) return broken(key, name, major, read.etag, `${where} is ignored: ${misplaced}`);
  return { pointer, etag: read.etag };
}

/** The registered file's text, or why it cannot be trusted: missing, too big, or not the bytes registered. */
export async function readRegisteredText(store: ObjectStore, pointer: RegistryPointer): Promise<{ text: string } | { problem: string }> {
  const read = await readVersionUpTo(store, pointer.key, MAX_VERSION_BYTES);
  const where = `${store.location}/${pointer.key}`;
  if (!read) return { problem: `${where}: the registered file is missing` };
  if ('size' in read) return { problem: `${where} is ${read.size} bytes: a registered contract is at most ${MAX_VERSION_BYTES}` };
  if (sha256Hex(read.bytes) !== pointer.sha256) return { problem: `${where}: its bytes are not the ones registered (SHA-256 differs); a registered version is never rewritten, so publish a new version` };
  return { text: new TextDecoder().decode(read.bytes) };
}

/**
 * The migration document a pointer names, checked like the version: it must lie in the pointer's
 * own major folder and have the bytes registered. Undefined when the major came without one.
 */
export async function readRegisteredMigration(store: ObjectStore, pointer: RegistryPointer): Promise<{ text: string } | { problem: string } | undefined> {
  const migration = pointer.migration;
  if (!migration) return undefined;
  const where = `${store.location}/${migration.key}`;
  const folder = pointer.key.slice(0, pointer.key.lastIndexOf('/') + 1);
  if (!migration.key.startsWith(folder) || !migration.key.endsWith('.migration.md') || migration.key.slice(folder.length).includes('/')) return { problem: `${where} is not in ${pointer.name} v${pointer.major}'s own folder ${folder}` };
  const read = await readVersionUpTo(store, migration.key, MAX_VERSION_BYTES);
  if (!read) return { problem: `${where}: the registered migration document is missing` };
  if ('size' in read) return { problem: `${where} is ${read.size} bytes: a registered document is at most ${MAX_VERSION_BYTES}` };
  if (sha256Hex(read.bytes) !== migration.sha256) return { problem: `${where}: its bytes are not the ones registered (SHA-256 differs)` };
  return { text: new TextDecoder().decode(read.bytes) };
}

/** The pointer keys under the prefix. */
export async function pointerKeys(store: ObjectStore, prefix: string): Promise<string[]> {
  return (await pointerListing(store, prefix)).map((object) => object.key);
}

/** The pointers under the registry prefix, or only one dataset's (`name`), with the ETags and sizes a cache compares. */
export async function pointerListing(store: ObjectStore, prefix: string, name?: string): Promise<{ key: string; etag: string; size: number }[]> {
  const found: { key: string; etag: string; size: number }[] = [];
  for await (const object of store.list(name === undefined ? prefix : `${prefix}${name}/`)) {
    if (isPointerKey(prefix, object.key)) found.push({ key: object.key, etag: object.etag, size: object.size });
  }
  return found;
}

/** Something under a pointer key that is not a pointer of that key: reported, never trusted, never thrown. */
function broken(key: string, name: string, major: number, etag: string, problem: string): PointerRead {
  return { pointer: { format: 'contract-gate/registry-pointer@1', name, major, version: '', key, sha256: '', file: '', registered_at: '' }, etag, problem };
}
