import { Readable, pipeline } from 'node:stream';
import { constants, createGunzip } from 'node:zlib';
import { UnreadableError } from './table-file.js';

/** zlib's output buffer: big enough that a text reader's refill is one piece, not dozens. */
const MAX_INFLATE_CHUNK = 1 << 20;

/**
 * Inflates gzip (one member or several concatenated, as `cat a.gz b.gz` makes) as the bytes
 * arrive, in pieces of at most `chunkBytes`. Memory stays at about one compressed chunk and
 * one inflated one, whatever the file's size: the stream only pulls the next compressed chunk
 * when the reader has taken what the last one gave. A storage error passes through as it is;
 * bytes that do not inflate are an UnreadableError saying what is wrong with the file.
 */
export async function* gunzipChunks(compressed: AsyncIterable<Uint8Array>, chunkBytes: number): AsyncGenerator<Uint8Array> {
  const inflater = createGunzip({ chunkSize: Math.max(constants.Z_MIN_CHUNK, Math.min(chunkBytes, MAX_INFLATE_CHUNK)) });
  // The callback only keeps pipeline from throwing elsewhere; the error reaches the loop below.
  const inflated = pipeline(Readable.from(compressed, { objectMode: true, highWaterMark: 1 }), inflater, () => {});
  try {
    for await (const piece of inflated as AsyncIterable<Buffer>) {
      for (let at = 0; at < piece.length; at += chunkBytes) yield piece.subarray(at, at + chunkBytes);
    }
  } catch (error) {
    throw isZlibError(error) ? new UnreadableError(gzipFailure(error), { cause: error }) : error;
  }
}

/** zlib's own errors carry codes such as Z_DATA_ERROR; anything else (storage) is not ours to word. */
function isZlibError(error: unknown): error is Error & { code: string } {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('Z_');
}

// Rows read before the failure were checked; how far that got depends on buffering, so the
// reason says what is wrong, not where.
function gzipFailure(error: Error & { code: string }): string {
  const zlib = `(zlib: ${error.message})`;
  if (error.code === 'Z_BUF_ERROR') return `the gzip data ends early ${zlib}: the file is truncated; upload it again whole`;
  if (error.message === 'incorrect data check') return `the gzip data fails its checksum ${zlib}: the file is damaged; write and upload it again`;
  return `the gzip data is corrupt ${zlib}: it is not one gzip stream, or it is damaged or has bytes appended; write and upload it again`;
}
