import { parseContract, type LoadOptions } from '../contract/load-contract.js';
import type { Contract } from '../contract/model.js';
import { formatProblem } from '../contract/problems.js';
import { readVersion, readWhole, type ObjectStore } from '../storage/object-store.js';
import { DEFAULT_REGISTRY_PREFIX, isPointerKey, parsePointer, pointerKey, sha256Hex, type RegistryPointer } from './registry-layout.js';

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

/** The pointer of one major, with the ETag a replacement must match; undefined when none is registered. */
export async function readPointer(store: ObjectStore, prefix: string, name: string, major: number): Promise<{ pointer: RegistryPointer; etag: string } | undefined> {
  const key = pointerKey(prefix, name, major);
  const read = await readVersion(store, key);
  if (!read) return undefined;
  const pointer = parsePointer(new TextDecoder().decode(read.bytes));
  return pointer ? { pointer, etag: read.etag } : { pointer: brokenPointer(key, name, major), etag: read.etag };
}

/** The registered file's text, or why it cannot be trusted: missing, or not the bytes registered. */
export async function readRegisteredText(store: ObjectStore, pointer: RegistryPointer): Promise<{ text: string } | { problem: string }> {
  const bytes = await readWhole(store, pointer.key);
  if (!bytes) return { problem: `${store.location}/${pointer.key}: the registered file is missing` };
  if (sha256Hex(bytes) !== pointer.sha256) return { problem: `${store.location}/${pointer.key}: its bytes are not the ones registered (SHA-256 differs); a registered version is never rewritten, so publish a new version` };
  return { text: new TextDecoder().decode(bytes) };
}

/** Loads the version a pointer names, its origin stamped on the contract. */
export async function loadRegistered(store: ObjectStore, read: { pointer: RegistryPointer; etag: string }, options: RegistryReadOptions = {}): Promise<RegisteredContract | { problem: string }> {
  const { pointer } = read;
  if (pointer.sha256 === '') return { problem: `${store.location}/${pointer.key}: not a registry pointer (expected contract-gate/registry-pointer@1 JSON)` };
  const file = await readRegisteredText(store, pointer);
  if ('problem' in file) return file;
  const location = `${store.location}/${pointer.key}`;
  const { contract, problems } = parseContract(file.text, location, options.loadOptions);
  if (!contract) return { problem: `${location} does not load:\n${problems.filter((p) => p.severity === 'error').map(formatProblem).join('\n')}` };
  if (contract.name !== pointer.name || contract.version.text !== pointer.version) {
    return { problem: `${location} declares ${contract.name} ${contract.version.text}, but its pointer names ${pointer.name} ${pointer.version}` };
  }
  const origin = { location, sha256: pointer.sha256, ...(Number.isNaN(Date.parse(pointer.registered_at)) ? {} : { registered_at: pointer.registered_at }) };
  return { contract: { ...contract, origin }, pointer, pointerEtag: read.etag };
}

/** Every version in force, one per dataset and major, and the problems of those that do not load. */
export async function readRegistry(store: ObjectStore, options: RegistryReadOptions = {}): Promise<{ entries: RegisteredContract[]; problems: string[] }> {
  const prefix = options.prefix ?? DEFAULT_REGISTRY_PREFIX;
  const entries: RegisteredContract[] = [];
  const problems: string[] = [];
  for (const key of await pointerKeys(store, prefix)) {
    const [name, major] = key.slice(prefix.length).split('/');
    const read = await readPointer(store, prefix, name!, Number(major!.slice(1)));
    const loaded = read && (await loadRegistered(store, read, options));
    if (loaded && 'problem' in loaded) problems.push(loaded.problem);
    else if (loaded) entries.push(loaded);
  }
  return { entries, problems };
}

/** The pointer keys under the prefix, with the ETags a cache compares. */
export async function pointerKeys(store: ObjectStore, prefix: string): Promise<string[]> {
  return (await pointerListing(store, prefix)).map((object) => object.key);
}

/** The pointers under the registry prefix, or only one dataset's (`name`). */
export async function pointerListing(store: ObjectStore, prefix: string, name?: string): Promise<{ key: string; etag: string }[]> {
  const found: { key: string; etag: string }[] = [];
  for await (const object of store.list(name === undefined ? prefix : `${prefix}${name}/`)) if (isPointerKey(prefix, object.key)) found.push({ key: object.key, etag: object.etag });
  return found;
}

/** Something under a pointer key that is not a pointer: reported by loadRegistered, not thrown. */
function brokenPointer(key: string, name: string, major: number): RegistryPointer {
  return { format: 'contract-gate/registry-pointer@1', name, major, version: '', key, sha256: '', file: '', registered_at: '' };
}
