/**
 * S3's conditional reads (GetObject, HeadObject) and copy-source conditions (CopyObject,
 * UploadPartCopy), evaluated against an object that exists (an absent one is NoSuchKey first).
 * The order is RFC 7232's, which S3 documents: If-Match, when present, decides alone over
 * If-Unmodified-Since; If-None-Match likewise over If-Modified-Since. Pure, so the middleware
 * only has to supply headers and the stored state.
 */
import type { HeaderValue } from './s3rver-types.js';
import { matchesAny, type Condition } from './write-preconditions.js';

export interface ReadPreconditions {
  readonly ifMatch?: string;
  readonly ifNoneMatch?: string;
  readonly ifModifiedSince?: string;
  readonly ifUnmodifiedSince?: string;
}

export interface CurrentObject {
  /** Quoted, as s3rver keeps it. */
  readonly etag: string;
  /** An HTTP date; S3 compares whole seconds. */
  readonly lastModified: string;
}

/** `proceed`, or what S3 answers instead: 412 naming the failed header, or 304 Not Modified. */
export type ReadOutcome = { readonly answer: 'proceed' } | { readonly answer: 'precondition-failed'; readonly condition: Condition } | { readonly answer: 'not-modified' };

type Header = 'If-Match' | 'If-None-Match' | 'If-Modified-Since' | 'If-Unmodified-Since';

/** The four headers, plain (`if-match`) or with a prefix (`x-amz-copy-source-if-match`). */
export function readPreconditions(headers: Record<string, HeaderValue>, prefix = ''): ReadPreconditions {
  const header = (name: string): string | undefined => {
    const value = headers[`${prefix}${name}`];
    return Array.isArray(value) ? value.join(',') : value;
  };
  return {
    ifMatch: header('if-match'),
    ifNoneMatch: header('if-none-match'),
    ifModifiedSince: header('if-modified-since'),
    ifUnmodifiedSince: header('if-unmodified-since'),
  };
}

export function hasReadPreconditions(preconditions: ReadPreconditions): boolean {
  return Object.values(preconditions).some((value) => value !== undefined);
}

/** For GET and HEAD. */
export function readOutcome(preconditions: ReadPreconditions, current: CurrentObject): ReadOutcome {
  const failed = failedHeader(preconditions, current);
  if (failed === undefined) return { answer: 'proceed' };
  if (failed === 'If-None-Match' || failed === 'If-Modified-Since') return { answer: 'not-modified' };
  return { answer: 'precondition-failed', condition: failed };
}

/** For a copy's source: every failed condition is a 412 (S3 answers no copy with 304). */
export function failedCopySourceCondition(preconditions: ReadPreconditions, current: CurrentObject): Condition | undefined {
  const failed = failedHeader(preconditions, current);
  return failed === undefined ? undefined : `x-amz-copy-source-${failed}`;
}

function failedHeader(preconditions: ReadPreconditions, current: CurrentObject): Header | undefined {
  const { ifMatch, ifNoneMatch, ifModifiedSince, ifUnmodifiedSince } = preconditions;
  const modified = seconds(current.lastModified);
  if (ifMatch !== undefined) {
    if (!matchesAny(ifMatch, current.etag)) return 'If-Match';
  } else if (isAfter(modified, ifUnmodifiedSince)) {
    return 'If-Unmodified-Since';
  }
  if (ifNoneMatch !== undefined) {
    if (matchesAny(ifNoneMatch, current.etag)) return 'If-None-Match';
  } else if (ifModifiedSince !== undefined && !isAfter(modified, ifModifiedSince)) {
    // An unreadable date is ignored, as HTTP says, rather than taken as "not modified".
    if (!Number.isNaN(seconds(ifModifiedSince))) return 'If-Modified-Since';
  }
  return undefined;
}

/** Whether the object changed after `date`; false when there is no readable date. */
function isAfter(modified: number, date: string | undefined): boolean {
  if (date === undefined) return false;
  const limit = seconds(date);
  return !Number.isNaN(limit) && modified > limit;
}

function seconds(httpDate: string): number {
  return Math.floor(Date.parse(httpDate) / 1000);
}
