/**
 * The one I/O seam of the engine: a length and ranged reads. Local files, S3 objects and
 * in-memory buffers all arrive through it, so a reader never knows where its bytes live.
 * It has the shape of hyparquet's `AsyncBuffer` on purpose.
 */
export interface ByteSource {
  readonly byteLength: number;
  /** Bytes [start, end); `end` defaults to byteLength. */
  slice(start: number, end?: number): Promise<ArrayBuffer> | ArrayBuffer;
  /**
   * Bytes [start, end) written into `target` from `at`, for a source that can read into memory it
   * is given (a file) rather than into its own and then be copied.
   */
  readInto?(start: number, end: number, target: Uint8Array, at: number): Promise<void>;
}

/** Bytes [start, end) of `source` into `target` from `at`: straight in where the source can, else a slice copied. */
export async function readInto(source: ByteSource, start: number, end: number, target: Uint8Array, at: number): Promise<void> {
  if (source.readInto) return source.readInto(start, end, target, at);
  target.set(new Uint8Array(await source.slice(start, end)), at);
}

export function byteSourceFromBytes(bytes: Uint8Array): ByteSource {
  return {
    byteLength: bytes.byteLength,
    slice(start, end = bytes.byteLength) {
      // A copy, not a view: Node's Buffer#slice shares memory and a view's .buffer is the pool.
      const copy = new Uint8Array(Math.max(0, Math.min(end, bytes.byteLength) - start));
      copy.set(bytes.subarray(start, end));
      return copy.buffer;
    },
  };
}
