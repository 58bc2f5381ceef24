import type { ObjectStore } from '../storage/object-store.js';
import { readChain, type ChainLink } from './audit-chain.js';
import { auditKey, parseAuditKey } from './audit-record.js';
import { datasetPath, type DropAddress, type GateLayout } from './gate-layout.js';

/** A place where the chain does not hold: the key, what is wrong there and what was expected. */
export interface AuditBreak {
  readonly key: string;
  readonly problem: string;
  readonly expected: string;
}

export interface ChainVerdict {
  readonly address: DropAddress;
  readonly records: number;
  readonly breaks: readonly AuditBreak[];
}

export interface AuditVerdict {
  readonly chains: readonly ChainVerdict[];
  /** Objects under the audit prefix that are no record's key: nothing the gate writes. */
  readonly strays: readonly AuditBreak[];
}

export interface AuditScope {
  readonly dataset?: string;
  readonly partition?: string;
}

/**
 * Walks every partition's chain under the audit prefix (or those of one dataset or partition)
 * and reports each broken link. Only a chain's tail, which nothing after it hashes, is not held by
 * the chain itself: that is what the bucket policy (creates only, no deletes) and Object Lock keep.
 */
export async function verifyAudit(store: ObjectStore, layout: GateLayout, scope: AuditScope = {}): Promise<AuditVerdict> {
  const partitions = new Map<string, DropAddress>();
  const strays: AuditBreak[] = [];
  for await (const object of store.list(`${layout.audit}${scope.dataset === undefined ? '' : `${scope.dataset}/`}`)) {
    const place = parseAuditKey(layout, object.key);
    if (!place) strays.push({ key: object.key, problem: 'is no audit record of a chain', expected: `only ${layout.audit}<name>/v<major>/<partition>/<8-digit sequence>.json` });
    else if (scope.partition === undefined || place.address.partition === scope.partition) partitions.set(datasetPath(place.address), place.address);
  }
  const chains: ChainVerdict[] = [];
  for (const address of [...partitions.values()]) {
    const links = await readChain(store, layout, address);
    chains.push({ address, records: links.length, breaks: chainBreaks(layout, address, links) });
  }
  return { chains, strays };
}

/** Sequence numbers 1, 2, ... without a gap; each record believable where it is; each naming its predecessor's hash. */
export function chainBreaks(layout: GateLayout, address: DropAddress, links: readonly ChainLink[]): AuditBreak[] {
  const breaks: AuditBreak[] = [];
  let before: ChainLink | undefined;
  let next = 1;
  for (const link of links) {
    const { seq } = link.place;
    for (; next < seq; next++) {
      const after = `${link.key} (record ${seq})`;
      breaks.push({ key: auditKey(layout, address, next), problem: 'is missing: the record was deleted', expected: `record ${next} of the chain, before ${after}` });
    }
    next = seq + 1;
    if ('problem' in link.read) breaks.push({ key: link.key, problem: link.read.problem, expected: `record ${seq} of ${datasetPath(address)}, as ${layout.audit}'s writers create it` });
    else breaks.push(...linkBreak(link, link.read.prev_sha256, before));
    before = link;
  }
  return breaks;
}

function linkBreak(link: ChainLink, said: string | null, before: ChainLink | undefined): AuditBreak[] {
  const { seq } = link.place;
  if (seq === 1) return said === null ? [] : [{ key: link.key, problem: `names a previous record (prev_sha256 ${said}) though it is the first`, expected: 'prev_sha256 null' }];
  // A gap before this record is reported as the missing record: its hash cannot be checked.
  if (before?.place.seq !== seq - 1) return [];
  if (said === before.sha256) return [];
  return [{
    key: link.key,
    problem: `names prev_sha256 ${String(said)}, but ${before.key} hashes to ${before.sha256}: ${before.key} was rewritten after this record was written`,
    expected: `${before.key} as it was when this record was written, whose SHA-256 is ${String(said)}`,
  }];
}
