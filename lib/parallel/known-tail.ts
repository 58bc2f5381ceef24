import type { ByteSource } from '../formats/byte-source.js';
import type { PartitionFile } from '../checks/partition-file.js';

/**
 * A file's last bytes as plain data: the Parquet footer, read once when the work was planned and
 * handed to every slice of the file, in this thread and in workers, instead of read again by each.
 */
export interface KnownTail {
  readonly start: number;
  readonly bytes: ArrayBuffer;
}

/** Tails larger than this (footers of thousands of columns) are read again rather than copied to every slice. */
const MAX_TAIL_BYTES = 1 << 20;

/** A source that remembers its first read reaching the end: where a Parquet reader looks for its footer. */
export function tailRecorder(source: ByteSource): { readonly source: ByteSource; tail(): KnownTail | undefined } {
  let tail: KnownTail | undefined;
  const size = source.byteLength;
  return {
    source: {
      byteLength: size,
      async slice(start, end = size) {
        const bytes = await source.slice(start, end);
        if (tail === undefined && end >= size && bytes.byteLength === size - start && bytes.byteLength <= MAX_TAIL_BYTES) tail = { start, bytes: bytes.slice(0) };
        return bytes;
      },
    },
    tail: () => tail,
  };
}

/** The file, its reads within the known tail answered from it (a copy each, as a read is). */
export function withKnownTail(file: PartitionFile, tail: KnownTail | undefined): PartitionFile {
  if (tail === undefined) return file;
  return {
    path: file.path,
    byteLength: file.byteLength,
    async open() {
      const opened = await file.open();
      return { source: tailAnswered(opened.source, tail), close: () => opened.close() };
    },
  };
}

function tailAnswered(source: ByteSource, tail: KnownTail): ByteSource {
  const tailEnd = tail.start + tail.bytes.byteLength;
  return {
    byteLength: source.byteLength,
    slice(start, end = source.byteLength) {
      const stop = Math.min(end, source.byteLength);
      if (start >= tail.start && stop <= tailEnd && start <= stop) return tail.bytes.slice(start - tail.start, stop - tail.start);
      return source.slice(start, end);
    },
  };
}
