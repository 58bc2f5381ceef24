import type { PartitionFile } from '../../lib/checks/validate-partition.js';
import type { ByteSource } from '../../lib/formats/byte-source.js';

/** A stretch of a synthetic file: literal bytes, or one byte repeated `length` times. */
export type Piece = string | { readonly fill: number; readonly length: number };

/**
 * A ByteSource over a file that is never held whole: each slice is made on request from the
 * pieces, so a 1 GB line costs only the chunk a reader asks for. `onSlice` sees every request.
 */
export function syntheticSource(pieces: readonly Piece[], onSlice: () => void = () => {}): ByteSource {
  const parts = pieces.map((piece) => (typeof piece === 'string' ? { bytes: new TextEncoder().encode(piece) } : piece));
  const lengths = parts.map((part) => ('bytes' in part ? part.bytes.length : part.length));
  const byteLength = lengths.reduce((sum, n) => sum + n, 0);
  return {
    byteLength,
    slice(start, end = byteLength) {
      onSlice();
      const out = new Uint8Array(Math.max(0, Math.min(end, byteLength) - start));
      let offset = 0;
      for (const [i, part] of parts.entries()) {
        const from = Math.max(start, offset);
        const to = Math.min(start + out.length, offset + lengths[i]!);
        if (from < to) {
          if ('bytes' in part) out.set(part.bytes.subarray(from - offset, to - offset), from - start);
          else out.fill(part.fill, from - start, to - start);
        }
        offset += lengths[i]!;
      }
      return out.buffer;
    },
  };
}

export function syntheticFile(path: string, source: ByteSource): PartitionFile {
  return { path, byteLength: source.byteLength, open: async () => ({ source, close: async () => {} }) };
}
