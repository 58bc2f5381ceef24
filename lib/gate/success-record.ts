import type { ListedObject } from './pinned-copy.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';

/** A `contract-gate/success@1` manifest (success-manifest.ts writes it), read in one version; its fields are judged by who needs them. */
export interface SuccessManifest {
  /** `s3://lake/published/orders/v1/dt=2026-11-30/_SUCCESS`, for messages. */
  readonly where: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

export type Problem = { readonly problem: string };

/**
 * Reads a `_SUCCESS`. Undefined when the key is absent; a problem when it is not JSON or not a
 * manifest the gate writes: a data problem for the caller to report or skip, never an exception.
 */
export async function readSuccessManifest(store: ObjectStore, key: string): Promise<SuccessManifest | Problem | undefined> {
  const read = await readVersion(store, key);
  if (!read) return undefined;
  const where = `${store.location}/${key}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch {
    return { problem: `${where} is not JSON` };
  }
  if (!isRecord(parsed) || parsed.format !== 'contract-gate/success@1') return { problem: `${where} is not a contract-gate/success@1 manifest` };
  return { where, fields: parsed };
}

/** The rows published (rows withheld under a row tolerance not counted). */
export function publishedRows(manifest: SuccessManifest): number | Problem {
  const { rows } = manifest.fields;
  return typeof rows === 'number' && Number.isSafeInteger(rows) && rows >= 0 ? rows : { problem: `${manifest.where} gives no row count (rows)` };
}

/** Exactly the files consumers read, each with the ETag it was published with. */
export function publishedFiles(manifest: SuccessManifest): readonly ListedObject[] | Problem {
  const { files } = manifest.fields;
  const pinned = Array.isArray(files) ? files.filter(isListedObject) : [];
  return Array.isArray(files) && pinned.length === files.length ? pinned : { problem: `${manifest.where} lists no files as {key, size, etag}` };
}

export function isProblem(value: unknown): value is Problem {
  return isRecord(value) && typeof value.problem === 'string';
}

function isListedObject(value: unknown): value is ListedObject {
  return isRecord(value) && typeof value.key === 'string' && typeof value.size === 'number' && Number.isSafeInteger(value.size) && value.size >= 0 && typeof value.etag === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
