import { createHash } from 'node:crypto';

/**
 * Where registered contracts live in the gate's bucket (the prefix is configuration):
 *
 *   _contracts/<name>/v<major>/<version>.yaml   one immutable object per version, the file's bytes
 *   _contracts/<name>/v<major>/current.json     the version in force for that major: a pointer
 *                                               replaced only by compare-and-swap
 *
 * One prefix per dataset, so a bucket policy can let a producer write only its own contracts.
 */
export const DEFAULT_REGISTRY_PREFIX = '_contracts/';

export const POINTER_FILE = 'current.json';

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
}

export function majorPrefix(prefix: string, name: string, major: number): string {
  return `${prefix}${name}/v${major}/`;
}

export function versionKey(prefix: string, name: string, major: number, version: string): string {
  return `${majorPrefix(prefix, name, major)}${version}.yaml`;
}

export function pointerKey(prefix: string, name: string, major: number): string {
  return `${majorPrefix(prefix, name, major)}${POINTER_FILE}`;
}

/** `<prefix><name>/v<major>/current.json`, the only keys the gate lists for. */
export function isPointerKey(prefix: string, key: string): boolean {
  if (!key.startsWith(prefix) || !key.endsWith(`/${POINTER_FILE}`)) return false;
  return /^[^/]+\/v\d+$/.test(key.slice(prefix.length, -POINTER_FILE.length - 1));
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

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
