import { Decompress } from 'fzstd';
import { UnreadableError } from './table-file.js';

/**
 * zstd's own decoder refuses frames whose window is larger than this unless told otherwise
 * (ZSTD_WINDOWLOG_LIMIT_DEFAULT, `zstd --memory`): every level up to 19 stays within 8 MiB.
 */
export const MAX_ZSTD_WINDOW = 2 ** 27;
/** RFC 8878 3.1.1.2: no block regenerates more than this. */
const MAX_BLOCK = 128 * 1024;
const FRAME_MAGIC = 0xfd2fb528;

/**
 * Inflates Zstandard (frames one after another, skippable frames passed over) as the bytes
 * arrive, in pieces of at most `chunkBytes`, as gunzipChunks does gzip. fzstd decodes, but
 * is handed one block at a time, cut here from the frame's own block headers: a block
 * regenerates at most 128 KiB, so memory stays at a compressed chunk, a block and the frame's
 * window (at most MAX_ZSTD_WINDOW, checked before fzstd allocates it), whatever the ratio.
 */
export async function* unzstdChunks(compressed: AsyncIterable<Uint8Array>, chunkBytes: number): AsyncGenerator<Uint8Array> {
  const input = new ByteQueue(compressed[Symbol.asyncIterator]());
  const out: Uint8Array[] = [];
  let decoder = new Decompress((piece) => void out.push(piece));
  const emit = function* (): Generator<Uint8Array> {
    for (const piece of out.splice(0)) for (let at = 0; at < piece.length; at += chunkBytes) yield piece.subarray(at, at + chunkBytes);
  };
  try {
    while (await input.has(4)) {
      const magic = input.u32(0);
      if ((magic & 0xfffffff0) === 0x184d2a50) {
        if (!(await input.has(8))) throw truncated();
        await input.skip(8 + input.u32(4));
        continue;
      }
      if (magic !== FRAME_MAGIC) throw new UnreadableError(`the zstd data is corrupt: after a frame come bytes that start no frame (${magic.toString(16)}); write and upload it again`);
      decoder = new Decompress((piece) => void out.push(piece));
      const frame = await frameHeader(input);
      decoder.push(input.take(frame.headerBytes));
      for (let last = false; !last; ) {
        if (!(await input.has(3))) throw truncated();
        const block = blockHeader(input, frame.window);
        last = block.last;
        if (!(await input.has(3 + block.bytes))) throw truncated();
        // fzstd holds back fewer than 18 bytes until told they are all: a small frame's last push says so.
        decoder.push(input.take(3 + block.bytes), last && !frame.checksum);
        yield* emit();
      }
      if (frame.checksum) {
        if (!(await input.has(4))) throw truncated();
        decoder.push(input.take(4), true);
        yield* emit();
      }
    }
    if (!input.done) throw truncated();
  } catch (error) {
    throw error instanceof Error && 'code' in error && typeof error.code === 'number' ? new UnreadableError(`the zstd data is corrupt (fzstd: ${error.message}); write and upload it again`, { cause: error }) : error;
  } finally {
    await input.close();
  }
}

function truncated(): UnreadableError {
  return new UnreadableError('the zstd data ends early: the file is truncated; upload it again whole');
}

interface Frame {
  readonly headerBytes: number;
  readonly window: number;
  readonly checksum: boolean;
}

/** RFC 8878 3.1.1.1: the frame header's length, its window (refused above the limit) and whether a checksum follows. */
async function frameHeader(input: ByteQueue): Promise<Frame> {
  if (!(await input.has(5))) throw truncated();
  const descriptor = input.byte(4);
  const single = (descriptor >> 5) & 1;
  const dictionary = [0, 1, 2, 4][descriptor & 3]!;
  const contentSize = descriptor >> 6 ? 1 << (descriptor >> 6) : single;
  if (descriptor & 3) throw new UnreadableError('the zstd data needs a dictionary to decompress; write it without one (zstd without -D)');
  const headerBytes = 5 + (single ? 0 : 1) + dictionary + contentSize;
  if (!(await input.has(headerBytes))) throw truncated();
  let window = 0;
  if (!single) {
    const exponent = input.byte(5) >> 3;
    const base = 2 ** (10 + exponent);
    window = base + (base / 8) * (input.byte(5) & 7);
  } else {
    for (let i = contentSize - 1; i >= 0; i--) window = window * 256 + input.byte(5 + dictionary + i);
    if (contentSize === 2) window += 256;
  }
  if (window > MAX_ZSTD_WINDOW) {
    throw new UnreadableError(`the zstd data needs a ${window}-byte window, over the ${MAX_ZSTD_WINDOW}-byte limit zstd itself keeps by default: write it at a level up to 19, without --long`);
  }
  return { headerBytes, window, checksum: ((descriptor >> 2) & 1) === 1 };
}

/** RFC 8878 3.1.1.2: a block's length in the stream (an RLE block's is one byte), refused above the block limit. */
function blockHeader(input: ByteQueue, window: number): { bytes: number; last: boolean } {
  const header = input.byte(0) | (input.byte(1) << 8) | (input.byte(2) << 16);
  const type = (header >> 1) & 3;
  const size = header >>> 3;
  if (type === 3) throw new UnreadableError('the zstd data is corrupt: a block of the reserved type; write and upload it again');
  if (size > Math.min(MAX_BLOCK, Math.max(window, 1))) {
    throw new UnreadableError(`the zstd data is corrupt: a block of ${size} bytes, over the ${Math.min(MAX_BLOCK, window)}-byte limit of its frame; write and upload it again`);
  }
  return { bytes: type === 1 ? 1 : size, last: (header & 1) === 1 };
}

/** Compressed bytes as they arrive, looked at ahead and taken in exact lengths. */
class ByteQueue {
  /** Bytes [at, end) of `bytes` are unread; the buffer grows by doubling, so a block arriving in many small chunks is copied a few times, not once per chunk. */
  private bytes = new Uint8Array(0);
  private at = 0;
  private end = 0;
  done = false;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  /** Whether `n` bytes are there (reading on as needed); false at the end of the input. */
  async has(n: number): Promise<boolean> {
    while (this.end - this.at < n && !this.done) {
      const next = await this.source.next();
      if (next.done) this.done = true;
      else this.append(next.value);
    }
    return this.end - this.at >= n && !(this.end === this.at && this.done);
  }

  byte(offset: number): number {
    return this.bytes[this.at + offset]!;
  }

  u32(offset: number): number {
    return (this.byte(offset) | (this.byte(offset + 1) << 8) | (this.byte(offset + 2) << 16) | (this.byte(offset + 3) << 24)) >>> 0;
  }

  take(n: number): Uint8Array {
    const piece = this.bytes.slice(this.at, this.at + n);
    this.at += n;
    return piece;
  }

  /** Passes over `n` bytes without keeping them (a skippable frame may be large). */
  async skip(n: number): Promise<void> {
    while (n > 0) {
      if (!(await this.has(1))) throw truncated();
      const step = Math.min(n, this.end - this.at);
      this.at += step;
      n -= step;
    }
  }

  async close(): Promise<void> {
    await this.source.return?.(undefined);
  }

  private append(chunk: Uint8Array): void {
    const left = this.end - this.at;
    if (this.end + chunk.length > this.bytes.length) {
      const size = left + chunk.length;
      const target = size > this.bytes.length / 2 ? new Uint8Array(Math.max(2 * this.bytes.length, size)) : this.bytes;
      target.set(this.bytes.subarray(this.at, this.end));
      this.bytes = target;
      this.at = 0;
      this.end = left;
    }
    this.bytes.set(chunk, this.end);
    this.end += chunk.length;
  }
}
