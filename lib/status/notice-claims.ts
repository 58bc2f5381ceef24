import { isoSeconds } from '../contract/temporal.js';
import { GateError } from '../errors.js';
import type { GateLayout } from '../gate/gate-layout.js';
import { readVersion, type ObjectInfo, type ObjectStore } from '../storage/object-store.js';
import { claimKey, sunsetKey, type PartitionRef } from './lake-keys.js';
import { MAX_NOTICES, type NoticeEntry, type NoticeKind } from './lake-status.js';
import type { LakeTables } from './partition-table.js';
import type { StatusProblems } from './status-problems.js';

/** A claim as listed: where it is and what its key says; its body is read only if it is kept. */
type ListedClaim = Omit<NoticeEntry, 'subject' | 'state'> & { readonly modified: number };

const SLA_KINDS: readonly NoticeKind[] = ['sla_missed', 'sla_recovered', 'stale'];

/**
 * One LIST of each claim root under `_gate/` (notices, sla, abandoned, sunset), keeping the
 * newest MAX_NOTICES by last-modified time. An `sla_missed` claim also marks its partition late
 * in the tables: the probe paged it, whatever happened since.
 */
export async function listClaims(store: ObjectStore, layout: GateLayout, tables: LakeTables, problems: StatusProblems): Promise<ListedClaim[]> {
  const newest = newestClaims();
  const partitionRoot = async (kind: 'notices' | 'sla' | 'abandoned', kindOf: (name: string) => NoticeKind | undefined) => {
    const root = `${layout.state}${kind}/`;
    for await (const object of store.list(root)) {
      const ref = claimKey(root, object.key);
      const noticeKind = ref && kindOf(ref.name);
      if (!ref || !noticeKind) problems.misfit(root, object.key, `${root}<dataset>/v<major>/<partition>/${kind === 'sla' ? '<sla_missed|sla_recovered|stale>' : '<name>'}.json`);
      else {
        newest.add(listed(object, noticeKind, ref));
        if (noticeKind === 'sla_missed') tables.table(ref.dataset, ref.major).at(ref.partition).missedAt = object.lastModified.getTime();
      }
    }
  };
  await partitionRoot('notices', () => 'verdict');
  await partitionRoot('sla', (name) => SLA_KINDS.find((kind) => kind === name));
  await partitionRoot('abandoned', () => 'abandoned');
  const sunsetRoot = `${layout.state}sunset/`;
  for await (const object of store.list(sunsetRoot)) {
    const ref = sunsetKey(sunsetRoot, object.key);
    if (ref) newest.add({ ...listedAt(object), kind: 'sunset_reminder', dataset: ref.dataset, version: ref.version });
    else problems.misfit(sunsetRoot, object.key, `${sunsetRoot}<dataset>/v<major>/<days>d.json`);
  }
  return newest.list();
}

/** The kept claims' bodies: `{token, subject, state?}` as notify-once.ts writes them (no state: sent). */
export async function readNotices(store: ObjectStore, claims: readonly ListedClaim[], problems: StatusProblems): Promise<NoticeEntry[]> {
  const entries: NoticeEntry[] = [];
  for (const { modified: _, ...claim } of claims) {
    const body = await readClaim(store, claim.key);
    if (body === undefined) continue; // released since it was listed: a handler gave it back
    if (typeof body === 'string') problems.add(`${store.location}/${claim.key} ${body}`);
    else entries.push({ ...claim, ...body });
  }
  return entries;
}

async function readClaim(store: ObjectStore, key: string): Promise<Pick<NoticeEntry, 'subject' | 'state'> | string | undefined> {
  let text: string;
  try {
    const read = await readVersion(store, key);
    if (!read) return undefined;
    text = new TextDecoder().decode(read.bytes);
  } catch (error) {
    if (error instanceof GateError) return `could not be read: ${error.message}`;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'is not JSON';
  }
  const { token, subject, state } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof token !== 'string' || typeof subject !== 'string' || !(state === undefined || state === 'sent' || state === 'sending')) {
    return 'is not a notice claim ({token, subject, state?})';
  }
  return { subject, state: state ?? 'sent' };
}

function listed(object: ObjectInfo, kind: NoticeKind, ref: PartitionRef): ListedClaim {
  return { ...listedAt(object), kind, dataset: ref.dataset, version: `v${ref.major}`, partition: ref.partition };
}

function listedAt(object: ObjectInfo): Pick<ListedClaim, 'key' | 'at' | 'modified'> {
  const modified = object.lastModified.getTime();
  return { key: object.key, at: isoSeconds(modified), modified };
}

/** Newest first, ties by key (descending) so a page made twice shows the same list; trimmed as it grows. */
function newestClaims(): { add(claim: ListedClaim): void; list(): ListedClaim[] } {
  let kept: ListedClaim[] = [];
  const sorted = () => kept.sort((a, b) => b.modified - a.modified || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0)).slice(0, MAX_NOTICES);
  return {
    add(claim) {
      kept.push(claim);
      if (kept.length > 2 * MAX_NOTICES) kept = sorted();
    },
    list: sorted,
  };
}
