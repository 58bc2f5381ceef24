/**
 * The one I/O seam of the engine: a length and ranged reads. Local files, S3 objects and
 * in-memory buffers all arrive through it, so a reader never knows where its bytes live.
 * It has the shape of hyparquet's `AsyncBuffer` on purpose.
 */
export interface ByteSource {
  readonly byteLength: number;
  /** Bytes [start, end); `end` defaults to byteLength. */
  slice(start: number, end?: number): Promise<ArrayBuffer> | ArrayBuffer;
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
