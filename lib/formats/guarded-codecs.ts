import type { CompressionCodec, Compressors } from 'hyparquet';
import { DECODERS, type Decode } from './codec-decoders.js';
import type { DeferredCheck } from './page-checks.js';
import { InflatedSizeError, inflatedMessage } from './inflated-size.js';
import { EXPANSION_FLOOR_BYTES, formatBytes, MAX_EXPANSION, MAX_PAGE_BYTES } from './parquet-limits.js';
import { UnreadableError } from './table-file.js';

/**
 * Compressors for one read: every codec (SNAPPY too, which hyparquet would otherwise decode built
 * in) behind one gate. The page's declared uncompressed size must be a whole number within the
 * page limit and within what the codec can expand its input to, checked before a byte is
 * allocated. Pages whose compressed bytes match a deferred check (from the chunk's page walk) get
 * their level, index and delta streams checked once decompressed. A page that inflates to more or
 * fewer bytes than it declares is refused, named by its check's `where` or else by `where` here.
 */
export function guardedCompressors(deferred: readonly DeferredCheck[] = [], where?: string): Compressors {
  const byLength = new Map<number, DeferredCheck[]>();
  for (const item of deferred) {
    const same = byLength.get(item.compressed.length);
    if (same) same.push(item);
    else byLength.set(item.compressed.length, [item]);
  }
  const guarded: Compressors = {};
  for (const [codec, decode] of Object.entries(DECODERS) as [CompressionCodec, Decode][]) {
    guarded[codec] = (input, outputLength) => {
      checkDeclaredSize(codec, input.length, outputLength);
      const checks = (byLength.get(input.length) ?? []).filter((item) => sameBytes(item.compressed, input));
      // An empty page (an all-null column's dictionary) is empty whatever the codec wrote for it:
      // LZ4 writes the one byte 00, which its decoder would read as a match with no offset.
      const page = outputLength === 0 ? new Uint8Array(0) : decodeNamed(codec, decode, input, outputLength, checks[0]?.where ?? where);
      for (const item of checks) item.check(page);
      return page;
    };
  }
  return guarded;
}

function decodeNamed(codec: CompressionCodec, decode: Decode, input: Uint8Array, outputLength: number, where: string | undefined): Uint8Array {
  try {
    return decode(input, outputLength);
  } catch (error) {
    if (!(error instanceof InflatedSizeError)) throw error;
    throw new UnreadableError(`${where ?? 'a page'}: ${inflatedMessage(`its ${codec}`, error.declared, error.actual)}`, { cause: error });
  }
}

export function checkDeclaredSize(codec: CompressionCodec, compressed: number, declared: number): void {
  if (!Number.isInteger(declared) || declared < 0) throw new UnreadableError(`a ${codec} page declares an uncompressed size of ${declared}`);
  if (declared > MAX_PAGE_BYTES) {
    throw new UnreadableError(`a ${codec} page declares ${formatBytes(declared)} uncompressed, over the ${formatBytes(MAX_PAGE_BYTES)} page limit`);
  }
  const ratio = MAX_EXPANSION[codec];
  if (ratio !== undefined && declared > Math.max(EXPANSION_FLOOR_BYTES, compressed * ratio)) {
    throw new UnreadableError(`a ${codec} page declares ${formatBytes(declared)} from ${formatBytes(compressed)}: ${codec} cannot expand data more than ${ratio} times`);
  }
}

/** Identity of a page: the decoder's copy of the bytes is compared with ours (memcmp speed). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}
