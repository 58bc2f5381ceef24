import { GateError } from '../errors.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';
import { sha256Hex } from '../storage/content-hash.js';
import {
  AUDIT_FORMAT, auditBytes, auditKey, auditPrefix, chainedRecord, parseAuditKey, parseAuditRecord,
  type AuditAction, type AuditEntry, type AuditPlace, type AuditRecord, type StoredAudit,
} from './audit-record.js';
import { datasetPath, type DropAddress, type GateLayout } from './gate-layout.js';
import type { AttemptRef } from './quarantine-attempt.js';

/** One object of a partition's chain as stored: its bytes and hash, and the record, or why it cannot be believed. */
export interface ChainLink {
  readonly key: string;
  readonly place: AuditPlace;
  readonly sha256: string;
  readonly read: AuditRecord | { readonly problem: string };
}

/** Every object of the partition's chain, in sequence order (a nested partition's records are not its). */
export async function readChain(store: ObjectStore, layout: GateLayout, address: DropAddress): Promise<ChainLink[]> {
  const links: ChainLink[] = [];
  for await (const object of store.list(auditPrefix(layout, address))) {
    const place = parseAuditKey(layout, object.key);
    if (!place || place.address.partition !== address.partition) continue;
    const read = await readVersion(store, object.key);
    if (!read) continue; // deleted since it was listed: verify finds the gap
    links.push({ key: object.key, place, sha256: sha256Hex(read.bytes), read: parseAuditRecord(read.bytes, place) });
  }
  return links.sort((a, b) => a.place.seq - b.place.seq);
}

/** The latest believable record of one attempt's action: where a redrive stands, or the release done. */
export function latestOf(chain: readonly ChainLink[], action: AuditAction, attempt: string): StoredAudit | undefined {
  for (let i = chain.length - 1; i >= 0; i--) {
    const { key, sha256, read } = chain[i]!;
    if (!('problem' in read) && read.action === action && read.from.attempt === attempt) return { key, sha256, record: read };
  }
  return undefined;
}

/** The latest record of one attempt's action, read from the chain (or from where records were kept before it). */
export async function readLatest(store: ObjectStore, layout: GateLayout, ref: AttemptRef, action: AuditAction): Promise<StoredAudit | undefined> {
  return latestOf(await readChain(store, layout, ref.address), action, ref.attempt) ?? (await legacyDone(store, layout, ref, action));
}

/**
 * Appends the next record of an attempt's action to its partition's chain: a conditional create
 * of the next sequence number, carrying the hash of the record before it. `expected` is the
 * thread's latest record as the caller knows it: when another run (or a write of ours whose answer
 * was lost) has moved the thread on since, nothing is written and that newer record is returned,
 * for the caller to go on from, as a compare-and-swap would.
 */
export async function appendAudit(store: ObjectStore, layout: GateLayout, address: DropAddress, entry: AuditEntry, expected: StoredAudit | undefined): Promise<StoredAudit> {
  for (let tries = 1; ; tries++) {
    const chain = await readChain(store, layout, address);
    const latest = latestOf(chain, entry.action, entry.from.attempt);
    if (latest && latest.record.seq !== expected?.record.seq) return latest;
    const tail = chain.at(-1);
    const place = { address, seq: (tail?.place.seq ?? 0) + 1 };
    const record = chainedRecord(entry, place, tail);
    const bytes = auditBytes(record);
    const key = auditKey(layout, address, place.seq);
    try {
      await store.put(key, bytes, { ifNoneMatch: '*', contentType: 'application/json' });
      return { key, sha256: sha256Hex(bytes), record };
    } catch (error) {
      if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
      // Another record took this number (or a 409 on a write in flight): read the chain again.
      if (tries >= 8) throw new GateError('storage_failed', `${store.location}/${key}: the audit chain kept moving while this record was appended; run the command again`, { cause: error });
    }
  }
}

/**
 * A record written before the chain (`<state>audit/<partition>/<attempt>-<action>.json`, which the
 * state prefix's lifecycle expires): only `done` counts, so what was finished is not done again.
 */
async function legacyDone(store: ObjectStore, layout: GateLayout, ref: AttemptRef, action: AuditAction): Promise<StoredAudit | undefined> {
  const key = `${layout.state}audit/${datasetPath(ref.address)}${ref.attempt}-${action}.json`;
  const read = await readVersion(store, key);
  if (!read) return undefined;
  let old: Omit<Partial<AuditRecord>, 'format'> & { format?: string };
  try {
    old = JSON.parse(new TextDecoder().decode(read.bytes)) as typeof old;
  } catch {
    return undefined;
  }
  if (old.format !== 'contract-gate/audit@1' || old.state !== 'done' || old.from?.attempt !== ref.attempt) return undefined;
  const { address } = ref;
  const record = { ...old, format: AUDIT_FORMAT, seq: 0, prev_sha256: null, dataset: address.dataset, major: address.major, partition: address.partition, caller: old.caller ?? null } as AuditRecord;
  return { key, sha256: sha256Hex(read.bytes), record };
}
