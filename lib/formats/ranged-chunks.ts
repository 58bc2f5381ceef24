import type { ByteSource } from './byte-source.js';
import { UnreadableError } from './table-file.js';

/**
 * A source's bytes as ranged reads of at most `chunkBytes`, in order, so a text file is never
 * read whole. Each read is one `slice`: one ranged GET when the source is an S3 object.
 */
export async function* rangedChunks(source: ByteSource, chunkBytes: number): AsyncGenerator<Uint8Array> {
  let offset = 0;
  while (offset < source.byteLength) {
    const want = Math.min(chunkBytes, source.byteLength - offset);
    const chunk = new Uint8Array(await source.slice(offset, offset + want));
    if (chunk.byteLength === 0) {
      throw new UnreadableError(`reading at byte ${offset} returned no bytes before the end of the file`);
    }
    // A source may hand back more than asked; what lies past the request is read again next time.
    const piece = chunk.byteLength > want ? chunk.subarray(0, want) : chunk;
    offset += piece.byteLength;
    yield piece;
  }
}
