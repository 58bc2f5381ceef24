import type { ByteSource } from './byte-source.js';
import { MAGIC_BYTES, sniffCompression, type Compression } from './compression-magic.js';
import { gunzipChunks } from './gzip-chunks.js';
import { rangedChunks } from './ranged-chunks.js';
import { UnreadableError } from './table-file.js';
import { unzstdChunks } from './zstd-chunks.js';

const UNSUPPORTED: Readonly<Record<Exclude<Compression, 'gzip' | 'zstd'>, string>> = {
  bzip2: 'bzip2 (pandas .bz2)',
  xz: 'xz (pandas .xz)',
  zip: 'a zip archive (pandas .zip)',
};

/**
 * The text of a CSV or JSON Lines file in chunks: read as it is, or inflated on the fly when
 * its first bytes say gzip (`.csv.gz`, `.jsonl.gz`, DuckDB's `COMPRESSION gzip`) or zstd
 * (`.zst`, DuckDB's `COMPRESSION zstd`). Other compressions are refused with what to write
 * instead, rather than read as garbled text.
 */
export async function* textChunks(source: ByteSource, chunkBytes: number): AsyncGenerator<Uint8Array> {
  const raw = readingAhead(rangedChunks(source, chunkBytes));
  const head = await readHead(raw);
  const compression = sniffCompression(concat(head));
  if (compression === undefined) {
    yield* head;
    yield* raw;
  } else if (compression === 'gzip') {
    yield* gunzipChunks(replay(head, raw), chunkBytes);
  } else if (compression === 'zstd') {
    yield* unzstdChunks(replay(head, raw), chunkBytes);
  } else {
    await raw.return(undefined);
    throw new UnreadableError(`the file is compressed with ${UNSUPPORTED[compression]}; CSV and JSON Lines are read plain, gzip- or zstd-compressed: write it uncompressed, with gzip or with zstd`);
  }
}

/** The first chunks, until they hold enough bytes to sniff or the source ends. */
async function readHead(raw: AsyncIterator<Uint8Array>): Promise<Uint8Array[]> {
  const head: Uint8Array[] = [];
  let length = 0;
  while (length < MAGIC_BYTES) {
    const next = await raw.next();
    if (next.done) break;
    head.push(next.value);
    length += next.value.byteLength;
  }
  return head;
}

/** A source's bytes as they are, read ahead: a byte range of a plain file (csv-ranges.ts). */
export function plainChunks(source: ByteSource, chunkBytes: number): AsyncGenerator<Uint8Array> {
  return readingAhead(rangedChunks(source, chunkBytes));
}

/** Bytes [start, end) of a source, as a source of their own. */
export function sourceRange(source: ByteSource, start: number, end: number): ByteSource {
  const byteLength = Math.max(0, Math.min(end, source.byteLength) - start);
  return {
    byteLength,
    slice: (from, to = byteLength) => source.slice(start + from, start + Math.min(to, byteLength)),
  };
}

/**
 * The chunks of `chunks`, the next one already being read while the reader parses this one, so
 * the read (a disk read on the thread pool, a ranged GET) overlaps the parsing. Only from the
 * third chunk on: a reader that stops early (a CSV header) costs no read it does not use.
 */
async function* readingAhead(chunks: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  let pending: Promise<IteratorResult<Uint8Array>> | undefined;
  try {
    for (let taken = 0; ; taken++) {
      const next = await (pending ?? chunks.next());
      pending = undefined;
      if (next.done) return;
      if (taken >= 1) {
        pending = chunks.next();
        // Awaited on the next turn; until then a failed read must not count as unhandled.
        pending.catch(() => {});
      }
      yield next.value;
    }
  } finally {
    // A read still under way finishes (or fails) before the source closes under it.
    if (pending) await pending.catch(() => {});
    await chunks.return(undefined);
  }
}

async function* replay(head: readonly Uint8Array[], rest: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* head;
  yield* rest;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
