import type { ContractDiff } from '../compat/contract-diff.js';
import { parseContract, type LoadOptions } from '../contract/load-contract.js';
import type { Contract } from '../contract/model.js';
import type { ObjectStore } from '../storage/object-store.js';
import { mapLimited } from '../storage/map-limited.js';
import { READS_AT_ONCE } from './registry-layout.js';
import { majorPrefix, MAX_VERSION_BYTES, versionKey, versionOfKey, type RegistryPointer } from './registry-layout.js';
import { compareVersions, isOwnMajorFile, judgeSuccessor, ownMajorFile, refusalReason } from './successor-rule.js';
import { sha256Hex } from '../storage/content-hash.js';

/** Version objects as loaded, by key: they are write-once, so one read per ETag, a failure included. */
export type VersionCache = Map<string, { readonly etag: string; readonly loaded: { contract: Contract } | { problem: string } }>;

/** What one major's chain of versions may cost to judge: the bytes of every version object below the pointer's. */
export const MAX_CHAIN_BYTES = 16 * 1024 * 1024;

export interface ChainInput {
  readonly prefix: string;
  readonly loadOptions?: LoadOptions;
  readonly name: string;
  readonly major: number;
  readonly pointer: RegistryPointer;
  /** The version the pointer names, already checked against its bytes. */
  readonly contract: Contract;
  /** The dataset's other registered majors. */
  readonly otherMajors: readonly number[];
}

export interface ChainVerdict {
  readonly accepted: boolean;
  readonly problem?: string;
  /** The refusal's changes, against `against`. */
  readonly diff?: ContractDiff;
  readonly against?: string;
  /** The newest version the chain accepts below the pointer's: what a reader with nothing in force enforces instead. */
  readonly fallback?: Contract;
}

/**
 * Whether the pointer's version may be in force, judged from the version objects alone so that
 * a fresh reader (a cold Lambda, `status`, the reconciler) decides as a warm one: the lowest
 * version of the major starts the chain (a new major of a known dataset only from a file of its
 * own), and a version is accepted when it is a compatible successor of a version accepted below
 * it. A version object that a publisher created and then lost the race for the pointer with is
 * skipped without harm, since the next is judged against any accepted version, not only the one
 * just below it.
 */
export async function versionChain(store: ObjectStore, cache: VersionCache, input: ChainInput): Promise<ChainVerdict> {
  const chain = await acceptedChain(store, cache, input);
  if ('problem' in chain) return { accepted: false, problem: chain.problem };
  if (chain.length === 0) return firstOfMajor(input);
  if (acceptedBelow(chain, input.contract)) return { accepted: true };
  const last = chain[chain.length - 1]!;
  const diff = judgeSuccessor(last, input.contract);
  return { accepted: false, problem: refusalReason(input.contract, diff, last.version.text), diff, against: `${last.name} ${last.version.text} (registered)`, fallback: last };
}

/** The versions below the pointer's that the chain accepts, in version order. */
export async function acceptedChain(store: ObjectStore, cache: VersionCache, input: Omit<ChainInput, 'contract' | 'otherMajors'>): Promise<Contract[] | { problem: string }> {
  const below = await versionsBelow(store, input);
  if ('problem' in below) return below;
  const chain: Contract[] = [];
  for (const loaded of await mapLimited(below, READS_AT_ONCE, (object) => loadVersion(store, cache, input, object))) {
    if ('contract' in loaded && (chain.length === 0 || acceptedBelow(chain, loaded.contract))) chain.push(loaded.contract);
  }
  return chain;
}

/** A compatible successor of some accepted version, the newest tried first (the usual case). */
function acceptedBelow(chain: readonly Contract[], next: Contract): boolean {
  for (let at = chain.length - 1; at >= 0; at--) if (judgeSuccessor(chain[at]!, next).ok) return true;
  return false;
}

/** The first version of a major: a new major of a dataset with an older one comes in a file of its own, as `publish` requires. */
function firstOfMajor(input: ChainInput): ChainVerdict {
  const { name, major, pointer } = input;
  const older = input.otherMajors.filter((m) => m < major);
  if (older.length === 0 || isOwnMajorFile(name, major, pointer.file)) return { accepted: true };
  return { accepted: false, problem: `${name} v${older.join(', v')} is registered: the first version of v${major} must come from a file of its own, ${ownMajorFile(name, major)}, not "${pointer.file}"` };
}

interface VersionObject {
  readonly key: string;
  readonly etag: string;
  readonly size: number;
  readonly version: string;
}

/** The version objects of the major below the pointer's version, in version order, within the byte budget. */
async function versionsBelow(store: ObjectStore, input: Omit<ChainInput, 'contract' | 'otherMajors'>): Promise<VersionObject[] | { problem: string }> {
  const found: VersionObject[] = [];
  for await (const object of store.list(majorPrefix(input.prefix, input.name, input.major))) {
    const version = versionOfKey(input.prefix, input.name, input.major, object.key);
    if (version !== undefined && compareVersions(version, input.pointer.version) < 0) found.push({ key: object.key, etag: object.etag, size: object.size, version });
  }
  const bytes = found.reduce((total, object) => total + object.size, 0);
  if (bytes > MAX_CHAIN_BYTES) {
    return { problem: `the ${found.length} versions below it under ${store.location}/${majorPrefix(input.prefix, input.name, input.major)} hold ${bytes} bytes, more than the ${MAX_CHAIN_BYTES} the gate reads to judge a major` };
  }
  return found.sort((a, b) => compareVersions(a.version, b.version));
}

async function loadVersion(store: ObjectStore, cache: VersionCache, input: Omit<ChainInput, 'contract' | 'otherMajors'>, object: VersionObject): Promise<{ contract: Contract } | { problem: string }> {
  const held = cache.get(object.key);
  if (held?.etag === object.etag) return held.loaded;
  const loaded = await readVersionObject(store, input, object);
  cache.set(object.key, { etag: object.etag, loaded });
  return loaded;
}

async function readVersionObject(store: ObjectStore, input: Omit<ChainInput, 'contract' | 'otherMajors'>, object: VersionObject): Promise<{ contract: Contract } | { problem: string }> {
  const location = `${store.location}/${object.key}`;
  if (object.size > MAX_VERSION_BYTES) return { problem: `${location} is ${object.size} bytes: a registered contract is at most ${MAX_VERSION_BYTES}` };
  // The listing told its size and ETag, and a version object is never replaced: read it as listed.
  const bytes = await store.read(object.key, 0, object.size, { ifMatch: object.etag });
  const { contract } = parseContract(new TextDecoder().decode(bytes), location, input.loadOptions);
  if (!contract || contract.name !== input.name || versionKey(input.prefix, input.name, input.major, contract.version.text) !== object.key) {
    return { problem: `${location} does not load as ${input.name} ${object.version}` };
  }
  return { contract: { ...contract, origin: { location, sha256: sha256Hex(bytes) } } };
}
