import type { ByteSource } from './byte-source.js';

export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** Ranges closer than this are fetched as one: a request costs more than a few hundred KB. */
export const COALESCE_GAP = 512 * 1024;

/** Merges overlapping and near ranges, so a row group's columns arrive in few requests. */
export function coalesce(ranges: readonly ByteRange[], gap = COALESCE_GAP): ByteRange[] {
  const sorted = [...ranges].filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const merged: ByteRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start - last.end <= gap) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, range.end) };
    else merged.push({ ...range });
  }
  return merged;
}

/** A source whose fetched ranges can also be read in place, without the copy a slice makes. */
export interface PrefetchedSource extends ByteSource {
  /** The bytes [start, end) when they were fetched, as a view into the fetched block. */
  view(start: number, end: number): Uint8Array | undefined;
}

/**
 * Fetches the given ranges up front (coalesced) and serves slices inside them from memory;
 * anything outside falls through to the source. Readers then ask for bytes however they like
 * while the store sees a few large reads.
 */
export async function prefetchedSource(source: ByteSource, ranges: readonly ByteRange[]): Promise<PrefetchedSource> {
  const blocks = await Promise.all(coalesce(ranges).map(async (range) => ({ ...range, bytes: new Uint8Array(await source.slice(range.start, range.end)) })));
  const view = (start: number, end: number) => {
    const block = blocks.find((b) => start >= b.start && end <= b.end);
    return block?.bytes.subarray(start - block.start, end - block.start);
  };
  return {
    byteLength: source.byteLength,
    view,
    slice(start, end = source.byteLength) {
      return view(start, end)?.slice().buffer ?? source.slice(start, end);
    },
  };
}

/** What a run fetched from storage, for the report: bytes and requests. */
export interface ReadStats {
  bytes: number;
  requests: number;
}

export function countedSource(source: ByteSource, stats: ReadStats): ByteSource {
  return {
    byteLength: source.byteLength,
    slice(start, end = source.byteLength) {
      stats.requests += 1;
      stats.bytes += Math.max(0, Math.min(end, source.byteLength) - start);
      return source.slice(start, end);
    },
  };
}
