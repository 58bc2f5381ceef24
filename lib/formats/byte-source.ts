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
      const copy = bytes.slice(start, end);
      return copy.buffer;
    },
  };
}
