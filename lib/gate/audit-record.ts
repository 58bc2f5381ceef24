import { datasetPath, type DropAddress, type GateLayout } from './gate-layout.js';

/**
 * What an owner did to a quarantine attempt: one record of the partition's audit chain,
 * `_audit/<name>/v<major>/<partition>/<seq>.json`. Records are only ever created (a conditional
 * create of the next sequence number), each with the SHA-256 of the bytes of the record before it,
 * so a record replaced or deleted afterwards breaks the chain where `audit verify` finds it. A
 * redrive's progress is a thread of records of one attempt (copying, marking, done); the latest
 * says where it stands, which is also what makes running the same command again a no-op.
 */
export interface AuditRecord {
  readonly format: typeof AUDIT_FORMAT;
  /** 1 for the partition's first record, then one more each. */
  readonly seq: number;
  /** SHA-256 (hex) of the stored bytes of record `seq - 1`; null for the first. */
  readonly prev_sha256: string | null;
  /** The partition, as the key names it: a record elsewhere than it says is not believed. */
  readonly dataset: string;
  readonly major: number;
  readonly partition: string;
  readonly action: AuditAction;
  /**
   * redrive: `copying` (copies into staging under way), `marking` (every copy made, the marker
   * due), `done`; `withdrawn` when an interrupted redrive was refused on its re-run and its
   * copies taken back. A release is recorded once `done`: its progress is its decision's.
   */
  readonly state: 'copying' | 'marking' | 'done' | 'withdrawn';
  /** Who the owner said did it (`--by`), or, without `--by`, who the caller is. */
  readonly by: string;
  /** Who the caller is by STS GetCallerIdentity (an ARN) whatever `--by` says; null at an endpoint without STS. */
  readonly caller: string | null;
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

export const AUDIT_FORMAT = 'contract-gate/audit@2';

export type AuditAction = 'redrive' | 'release';

/** What a writer says; the chain fields are the append's to fill in. */
export type AuditEntry = Omit<AuditRecord, 'format' | 'seq' | 'prev_sha256' | 'dataset' | 'major' | 'partition'>;

/** A stored record and the hash of its bytes, which the next record of the chain carries. */
export interface StoredAudit {
  readonly key: string;
  readonly sha256: string;
  readonly record: AuditRecord;
}

/** Where one audit key lives: its partition and sequence number. */
export interface AuditPlace {
  readonly address: DropAddress;
  readonly seq: number;
}

const SEQ_DIGITS = 8;
const SEQ_FILE = /^(\d{8})\.json$/;
const MAJOR = /^v(0|[1-9]\d{0,5})$/;

export function auditPrefix(layout: GateLayout, address: DropAddress): string {
  return `${layout.audit}${datasetPath(address)}`;
}

export function auditKey(layout: GateLayout, address: DropAddress, seq: number): string {
  return `${auditPrefix(layout, address)}${String(seq).padStart(SEQ_DIGITS, '0')}.json`;
}

/** The partition and sequence number a key under the audit prefix names, or undefined when it is no record's key. */
export function parseAuditKey(layout: GateLayout, key: string): AuditPlace | undefined {
  if (!key.startsWith(layout.audit)) return undefined;
  const segments = key.slice(layout.audit.length).split('/');
  const file = SEQ_FILE.exec(segments.pop() ?? '');
  const [dataset, major, ...partition] = segments;
  if (!file || !dataset || !major || !MAJOR.test(major) || partition.length === 0 || partition.some((s) => s === '')) return undefined;
  const seq = Number(file[1]);
  return seq >= 1 ? { address: { dataset, major: Number(major.slice(1)), partition: partition.join('/') }, seq } : undefined;
}


/** The bytes a record is stored as: what its successor's `prev_sha256` is the hash of. */
export function auditBytes(record: AuditRecord): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(record, null, 2)}\n`);
}

/** The record of the chain at `place`, from what a writer says and the record before it. */
export function chainedRecord(entry: AuditEntry, place: AuditPlace, prev: { readonly sha256: string } | undefined): AuditRecord {
  const { address, seq } = place;
  // A writer may hand back a record it read: its own chain fields are replaced, never kept.
  const { format: _f, seq: _s, prev_sha256: _p, dataset: _d, major: _m, partition: _pa, ...said } = entry as AuditEntry & Partial<AuditRecord>;
  return { format: AUDIT_FORMAT, seq, prev_sha256: prev?.sha256 ?? null, dataset: address.dataset, major: address.major, partition: address.partition, ...said };
}

/**
 * The record stored at `place`, or why it cannot be believed there: not JSON, not an audit record,
 * or naming another partition or sequence number than its key (copied from elsewhere).
 */
export function parseAuditRecord(bytes: Uint8Array, place: AuditPlace): AuditRecord | { readonly problem: string } {
  let parsed: Partial<AuditRecord>;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes)) as Partial<AuditRecord>;
  } catch {
    return { problem: 'is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.format !== AUDIT_FORMAT) return { problem: `is not an audit record (format "${AUDIT_FORMAT}")` };
  const { address, seq } = place;
  const said = { dataset: parsed.dataset, major: parsed.major, partition: parsed.partition, seq: parsed.seq };
  const path = { dataset: address.dataset, major: address.major, partition: address.partition, seq };
  const differs = (Object.keys(path) as (keyof typeof path)[]).filter((field) => said[field] !== path[field]);
  if (differs.length > 0) {
    const named = differs.map((field) => `${field} ${JSON.stringify(said[field])} where its key says ${JSON.stringify(path[field])}`).join(', ');
    return { problem: `disagrees with its key: it names ${named}` };
  }
  return parsed as AuditRecord;
}
