import { changeLines, formatVerdict } from '../compat/format-diff.js';
import { parseContract, type LoadOptions } from '../contract/load-contract.js';
import type { Contract } from '../contract/model.js';
import { formatProblem } from '../contract/problems.js';
import type { ObjectStore } from '../storage/object-store.js';
import { pointerListing, readPointer, readRegisteredText, type PointerRead, type RegisteredContract } from './registry-objects.js';
import { MAX_POINTER_BYTES } from './registry-layout.js';
import { mapLimited } from '../storage/map-limited.js';
import { READS_AT_ONCE } from './registry-layout.js';
import { judgeSuccessor, refusalReason } from './successor-rule.js';
import { acceptedChain, versionChain, type VersionCache } from './version-chain.js';

/** A pointer that is not in force as it stands: logged, and its owner paged, once per ETag. */
export interface RegistryProblem {
  /** The pointer's key and ETag: what "once" is counted by. */
  readonly key: string;
  readonly etag: string;
  /** The dataset and major its key names (never what its content claims). */
  readonly dataset: string;
  readonly major: number;
  /** The problem, what stays in force instead, and the changes when a version was refused. */
  readonly text: string;
  /** The version of that dataset and major in force despite the pointer, if any: its owner is paged. */
  readonly inForce?: Contract;
}

/** What a reader of the registry keeps between looks, so that an unchanged pointer costs nothing. */
export interface RegistryLookState {
  /** By pointer key: the version in force, and the ETag of the pointer that put it there. */
  readonly inForce: Map<string, { readonly etag: string; readonly entry: RegisteredContract }>;
  /** By pointer key: the ETag of a pointer that is not in force, so that it is not judged (or read) again. */
  readonly failed: Map<string, string>;
  readonly versions: VersionCache;
}

export function registryLookState(): RegistryLookState {
  return { inForce: new Map(), failed: new Map(), versions: new Map() };
}

export interface RegistryLookOptions {
  readonly prefix: string;
  readonly loadOptions?: LoadOptions;
  /** Only this dataset's pointers. */
  readonly name?: string;
}

/**
 * One look at the registry: one LIST of the pointers, and for each whose ETag is new, its
 * judgement. A pointer that fails (misplaced, too big, its file missing or rewritten, or a
 * version that is not a compatible successor) leaves the last good version of its dataset and
 * major in force (or, read cold, the newest version its chain accepts below it), is remembered
 * by its ETag like a good one, and is reported once.
 */
export async function lookAtRegistry(store: ObjectStore, state: RegistryLookState, options: RegistryLookOptions, report: (problem: RegistryProblem) => void | Promise<void>): Promise<void> {
  const { prefix } = options;
  const listed = await pointerListing(store, prefix, options.name);
  const present = new Set(listed.map((p) => p.key));
  for (const map of [state.inForce, state.failed]) for (const key of [...map.keys()]) if (!present.has(key)) map.delete(key);
  const majorsOf = (name: string) => listed.map((p) => placeOf(prefix, p.key)).filter((place) => place.name === name).map((place) => place.major);
  const changed = listed.filter(({ key, etag }) => state.inForce.get(key)?.etag !== etag && state.failed.get(key) !== etag).map(({ key, etag, size }) => ({ key, etag, size, ...placeOf(prefix, key), inForce: state.inForce.get(key)?.entry.contract }));
  // Judged side by side (a cold reader reads every version object of every major), taken in listing order.
  const judgements = await mapLimited(changed, READS_AT_ONCE, (pointer) => judgePointer(store, state, options, pointer, majorsOf(pointer.name)));
  for (const [at, judged] of judgements.entries()) {
    const { key, name, major } = changed[at]!;
    if ('entry' in judged) {
      state.inForce.set(key, { etag: judged.entry.pointerEtag, entry: judged.entry });
      state.failed.delete(key);
      continue;
    }
    state.failed.set(key, judged.etag);
    if (!state.inForce.has(key) && judged.fallback) state.inForce.set(key, { etag: '', entry: judged.fallback });
    const inForce = state.inForce.get(key)?.entry.contract;
    const stays = inForce ? `${inForce.name} ${inForce.version.text} stays in force` : `nothing is in force for ${name} v${major}`;
    await report({ key, etag: judged.etag, dataset: name, major, text: `${judged.problem}\n(${stays})`, ...(inForce ? { inForce } : {}) });
  }
}

interface Listed {
  readonly key: string;
  readonly etag: string;
  readonly size: number;
  readonly name: string;
  readonly major: number;
  /** What this reader has in force for the pointer's dataset and major. */
  readonly inForce: Contract | undefined;
}

type Judged = { entry: RegisteredContract } | { problem: string; etag: string; fallback?: RegisteredContract };

async function judgePointer(store: ObjectStore, state: RegistryLookState, options: RegistryLookOptions, listed: Listed, majors: readonly number[]): Promise<Judged> {
  const where = `${store.location}/${listed.key}`;
  // The listing already tells its size: an oversized pointer is never read.
  if (listed.size > MAX_POINTER_BYTES) return { problem: `${where} is ${listed.size} bytes: a registry pointer is at most ${MAX_POINTER_BYTES}; it is ignored`, etag: listed.etag };
  const read = await readPointer(store, options.prefix, listed.name, listed.major);
  if (!read) return { problem: `${where} was deleted while it was read`, etag: listed.etag };
  if (read.problem !== undefined) return { problem: read.problem, etag: read.etag };
  const entry = (contract: Contract): RegisteredContract => ({ contract, pointer: read.pointer, pointerEtag: read.etag });
  const place = { ...options, name: listed.name, major: listed.major, pointer: read.pointer };
  const own = await ownVersion(store, read, options);
  if ('problem' in own) {
    // Its file missing or rewritten: a reader with nothing in force enforces the newest good version below it.
    const below = listed.inForce ? [] : await acceptedChain(store, state.versions, place);
    const fallback = Array.isArray(below) ? below.at(-1) : undefined;
    return { problem: own.problem, etag: read.etag, ...(fallback ? { fallback: entry(fallback) } : {}) };
  }
  const chain = await versionChain(store, state.versions, { ...place, contract: own.contract, otherMajors: majors.filter((m) => m !== listed.major) });
  if (chain.accepted) {
    const refused = successorOfInForce(listed.inForce, own.contract);
    return refused === undefined ? { entry: entry(own.contract) } : { problem: refused, etag: read.etag };
  }
  const changes = chain.diff ? [`${chain.against}: ${formatVerdict(chain.diff)}`, ...changeLines(chain.diff.changes.filter((c) => c.class !== 'cosmetic'), '  ')] : [];
  return { problem: [`${where} names ${read.pointer.name} ${read.pointer.version}, which the registry does not accept: ${chain.problem}`, ...changes].join('\n'), etag: read.etag, ...(chain.fallback ? { fallback: entry(chain.fallback) } : {}) };
}

/**
 * A reader that has a version in force also judges the new one against it, as `publish` does:
 * going back to a lower version, or sideways from a version that was never in force, is refused
 * (a cold reader, which knows only the version objects, judges by the chain alone).
 */
function successorOfInForce(inForce: Contract | undefined, next: Contract): string | undefined {
  if (!inForce || inForce.version.text === next.version.text) return undefined;
  const diff = judgeSuccessor(inForce, next);
  if (diff.ok) return undefined;
  const lines = [`${inForce.name} ${inForce.version.text} (in force): ${formatVerdict(diff)}`, ...changeLines(diff.changes.filter((c) => c.class !== 'cosmetic'), '  ')];
  return [`${next.origin?.location ?? next.name}: ${refusalReason(next, diff, inForce.version.text)}`, ...lines].join('\n');
}

/** The version the pointer names, the bytes it registered, loading as that dataset and version. */
async function ownVersion(store: ObjectStore, read: PointerRead, options: RegistryLookOptions): Promise<{ contract: Contract } | { problem: string }> {
  const { pointer } = read;
  const file = await readRegisteredText(store, pointer);
  if ('problem' in file) return file;
  const location = `${store.location}/${pointer.key}`;
  const { contract, problems } = parseContract(file.text, location, options.loadOptions);
  if (!contract) return { problem: `${location} does not load:\n${problems.filter((p) => p.severity === 'error').map(formatProblem).join('\n')}` };
  if (contract.name !== pointer.name || contract.version.text !== pointer.version) {
    return { problem: `${location} declares ${contract.name} ${contract.version.text}, but its pointer names ${pointer.name} ${pointer.version}` };
  }
  const origin = { location, sha256: pointer.sha256, ...(Number.isNaN(Date.parse(pointer.registered_at)) ? {} : { registered_at: pointer.registered_at }) };
  return { contract: { ...contract, origin } };
}

/** The dataset and major a pointer key names (isPointerKey has matched it). */
function placeOf(prefix: string, key: string): { name: string; major: number } {
  const [name, major] = key.slice(prefix.length).split('/');
  return { name: name!, major: Number(major!.slice(1)) };
}
