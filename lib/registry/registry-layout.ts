
/**
 * Where registered contracts live in the gate's bucket (the prefix is configuration):
 *
 *   _contracts/<name>/v<major>/<version>.yaml   one immutable object per version, the file's bytes
 *   _contracts/<name>/v<major>/current.json     the version in force for that major: a pointer
 *                                               replaced only by compare-and-swap
 *   _contracts/<name>/v<major>/<version>.migration.md
 *                                               the migration document the major's first version
 *                                               was published with; immutable, its SHA-256 in
 *                                               the pointer
 *
 * One prefix per dataset, so a bucket policy can let a producer write only its own contracts.
 */
export const DEFAULT_REGISTRY_PREFIX = '_contracts/';

export const POINTER_FILE = 'current.json';

/**
 * The most the gate reads of a registry object. Anyone with a dataset's registry grant can store
 * objects of any size there, and every reader of the registry would load them: a pointer is a
 * few hundred bytes, a contract a few KB.
 */
export const MAX_POINTER_BYTES = 8 * 1024;
export const MAX_VERSION_BYTES = 1024 * 1024;

/** The pointer to the version in force for one major of a dataset. */
export interface RegistryPointer {
  readonly format: 'contract-gate/registry-pointer@1';
  readonly name: string;
  readonly major: number;
  readonly version: string;
  /** The immutable object holding that version's file. */
  readonly key: string;
  /** SHA-256 hex of that object's bytes: what the gate loads must be what was registered. */
  readonly sha256: string;
  /** The file name it was published from, e.g. `orders.v1.yaml`. */
  readonly file: string;
  readonly registered_at: string;
  readonly registered_by?: string;
  /** The migration document the major's first version was published with; carried on as the pointer moves within the major. */
  readonly migration?: RegisteredMigration;
}

export interface RegisteredMigration {
  /** `<prefix><name>/v<major>/<version>.migration.md`, write-once. */
  readonly key: string;
  /** SHA-256 hex of its bytes, as the pointer's `sha256` is of the version's. */
  readonly sha256: string;
  /** The file name it was published from, e.g. `orders_v1_to_v2.md`. */
  readonly file: string;
}

export function majorPrefix(prefix: string, name: string, major: number): string {
  return `${prefix}${name}/v${major}/`;
}

export function versionKey(prefix: string, name: string, major: number, version: string): string {
  return `${majorPrefix(prefix, name, major)}${version}.yaml`;
}

/** Beside the version's object: the document belongs to the version that opened the major. */
export function migrationKey(prefix: string, name: string, major: number, version: string): string {
  return `${majorPrefix(prefix, name, major)}${version}.migration.md`;
}

export function pointerKey(prefix: string, name: string, major: number): string {
  return `${majorPrefix(prefix, name, major)}${POINTER_FILE}`;
}

/** `<prefix><name>/v<major>/current.json`, the only keys the gate lists for. */
export function isPointerKey(prefix: string, key: string): boolean {
  if (!key.startsWith(prefix) || !key.endsWith(`/${POINTER_FILE}`)) return false;
  return /^[^/]+\/v\d+$/.test(key.slice(prefix.length, -POINTER_FILE.length - 1));
}

/** `<prefix><name>/v<major>/<MAJOR.MINOR.PATCH>.yaml`: the version objects of one major, as listed. */
export function versionOfKey(prefix: string, name: string, major: number, key: string): string | undefined {
  const folder = majorPrefix(prefix, name, major);
  const match = key.startsWith(folder) ? /^((0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*))\.yaml$/.exec(key.slice(folder.length)) : null;
  return match && Number(match[2]) === major ? match[1] : undefined;
}

/**
 * Why a pointer cannot be trusted where it lives, or undefined: the pointer at
 * `<prefix><name>/v<major>/current.json` must name that dataset and major, a version of that
 * major, and that version's own object. A grant to write one dataset's registry folder then
 * cannot define, change or subscribe anything of another dataset.
 */
export function misplacedPointer(prefix: string, name: string, major: number, pointer: RegistryPointer): string | undefined {
  if (pointer.name !== name || pointer.major !== major) return `it names ${pointer.name} v${pointer.major}, but a pointer at this key may only name ${name} v${major}`;
  const key = versionKey(prefix, name, major, pointer.version);
  if (versionOfKey(prefix, name, major, key) !== pointer.version) return `its version "${pointer.version}" is not a version MAJOR.MINOR.PATCH of major ${major}`;
  if (pointer.key !== key) return `its key is ${pointer.key}, but the version it names lives at ${key}`;
  return undefined;
}

export function parsePointer(text: string): RegistryPointer | undefined {
  try {
    const value = JSON.parse(text) as Partial<RegistryPointer>;
    const ok = value.format === 'contract-gate/registry-pointer@1' && typeof value.name === 'string' && typeof value.major === 'number'
      && typeof value.version === 'string' && typeof value.key === 'string' && typeof value.sha256 === 'string';
    return ok ? (value as RegistryPointer) : undefined;
  } catch {
    return undefined;
  }
}


/** Registry objects one look reads at once. */
export const READS_AT_ONCE = 8;
