/**
 * S3's conditional-write rules, evaluated against the key's current ETag (undefined when the
 * key is absent). Pure, so the middleware only has to supply headers and the stored state.
 */

export type WriteCondition = 'If-Match' | 'If-None-Match';
/** What a 412 names in its Condition element: a write's header, a read's, or a copy source's. */
export type Condition = WriteCondition | 'If-Unmodified-Since' | `x-amz-copy-source-${'If-Match' | 'If-None-Match' | 'If-Modified-Since' | 'If-Unmodified-Since'}`;

export interface WritePreconditions {
  readonly ifMatch?: string;
  readonly ifNoneMatch?: string;
}

export function hasPreconditions(preconditions: WritePreconditions): boolean {
  return preconditions.ifMatch !== undefined || preconditions.ifNoneMatch !== undefined;
}

/** The header that does not hold, or undefined when the write may proceed. */
export function failedPrecondition(
  preconditions: WritePreconditions,
  currentEtag: string | undefined,
): WriteCondition | undefined {
  const { ifMatch, ifNoneMatch } = preconditions;
  // An absent key matches no ETag, so If-Match on it fails rather than creating the key.
  if (ifMatch !== undefined && !matchesAny(ifMatch, currentEtag)) return 'If-Match';
  if (ifNoneMatch !== undefined && matchesAny(ifNoneMatch, currentEtag)) return 'If-None-Match';
  return undefined;
}

/** Whether a list of ETags (or `*`) names the current one; nothing matches an absent key. */
export function matchesAny(header: string, currentEtag: string | undefined): boolean {
  if (currentEtag === undefined) return false;
  const current = bareEtag(currentEtag);
  return header
    .split(',')
    .map((candidate) => candidate.trim())
    .some((candidate) => candidate === '*' || bareEtag(candidate) === current);
}

/** Clients send ETags quoted, bare, or weak-prefixed; S3 compares the opaque value only. */
export function bareEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"(.*)"$/s, '$1');
}
