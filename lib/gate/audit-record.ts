import { GateError } from '../errors.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';
import { datasetPath, type GateLayout } from './gate-layout.js';
import type { AttemptRef } from './quarantine-attempt.js';

/**
 * What an owner did to a quarantine attempt, kept under the state prefix:
 * `_gate/audit/<name>/v<major>/<partition>/<attempt>-redrive.json` (or `-release.json`). Created
 * with a conditional create, so one action per attempt has one record, and the record is also
 * what makes running the same command again a no-op.
 */
export interface AuditRecord {
  readonly format: 'contract-gate/audit@1';
  readonly action: AuditAction;
  /**
   * redrive: `copying` (copies into staging under way), `marking` (every copy made, the marker
   * due), `done`; `withdrawn` when an interrupted redrive was refused on its re-run and its
   * copies taken back. A release is recorded once `done`: its progress is its decision's.
   */
  readonly state: 'copying' | 'marking' | 'done' | 'withdrawn';
  readonly by: string;
  readonly reason: string | null;
  /** When the action started (ISO-8601). */
  readonly at: string;
  readonly completed_at?: string;
  readonly from: { readonly attempt: string; readonly folder: string; readonly status: string; readonly summary: string };
  /** What was copied where: quarantine key to staging (redrive) or published (release) key. */
  readonly copies: readonly { readonly from: string; readonly to: string; readonly size: number; readonly etag?: string }[];
  /** redrive: the marker written into staging, which has the current contract judge the drop again. */
  readonly marker?: { readonly key: string; readonly etag?: string; readonly bytes: 'kept manifest' | 'fresh manifest' };
  /** release: the decision it was carried out through, and the manifest it wrote. */
  readonly decision?: string;
  readonly attempt?: string;
  readonly success?: string;
  /** withdrawn: why the re-run refused. */
  readonly withdrawn?: string;
}

export type AuditAction = 'redrive' | 'release';

/** A stored record with the ETag a change of it must match. */
export interface StoredAudit {
  readonly key: string;
  readonly etag: string;
  readonly record: AuditRecord;
}

export function auditKey(layout: GateLayout, ref: AttemptRef, action: AuditAction): string {
  return `${layout.state}audit/${datasetPath(ref.address)}${ref.attempt}-${action}.json`;
}

export async function readAudit(store: ObjectStore, key: string): Promise<StoredAudit | undefined> {
  const read = await readVersion(store, key);
  if (!read) return undefined;
  try {
    const record = JSON.parse(new TextDecoder().decode(read.bytes)) as Partial<AuditRecord>;
    if (record.format === 'contract-gate/audit@1') return { key, etag: read.etag, record: record as AuditRecord };
  } catch {
    // reported below
  }
  throw new GateError('storage_failed', `${store.location}/${key} exists but is not an audit record`);
}

/**
 * Writes a record: a conditional create, or with `over` a replace of exactly that version. Undefined
 * when another run's record won the race: the caller reads it and goes on from there.
 */
export async function writeAudit(store: ObjectStore, key: string, record: AuditRecord, over?: StoredAudit): Promise<StoredAudit | undefined> {
  const condition = over ? { ifMatch: over.etag } : { ifNoneMatch: '*' as const };
  try {
    const { etag } = await store.put(key, `${JSON.stringify(record, null, 2)}\n`, { ...condition, contentType: 'application/json' });
    return { key, etag, record };
  } catch (error) {
    if (error instanceof GateError && error.code === 'precondition_failed') return undefined;
    throw error;
  }
}
