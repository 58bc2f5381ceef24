/**
 * The bytes of a page as its decoders read them: `bytes[at, end)` is what has been made and not yet
 * read. A whole page is one window that is full from the start; a streamed page (see
 * snappy-stream.ts) makes its bytes as they are asked for, so a page of 80 MB is never whole.
 * `fill` may move the bytes or replace the array, and a streamed window reuses its array: a reader
 * keeps positions relative to `at` across a fill, and copies what it keeps past one.
 */
export interface ByteWindow {
  readonly bytes: Uint8Array;
  at: number;
  readonly end: number;
  /** Bytes of the page after `at`, made or not. */
  readonly left: number;
  /** Makes at least `count` bytes (or all that are left) available from `at`. */
  fill(count: number): Promise<void>;
  /** Reads the rest of the page, which must come out to its declared length. */
  finish(): Promise<void>;
}

export function wholeWindow(bytes: Uint8Array): ByteWindow {
  return {
    bytes,
    at: 0,
    end: bytes.length,
    get left() {
      return bytes.length - this.at;
    },
    fill: async () => undefined,
    finish: async () => undefined,
  };
}

/** What a streamed window makes its bytes with: a decoder reading compressed input as it goes. */
export interface Producer {
  /** Bytes it makes in all, as its input declares them. */
  readonly total: number;
  /**
   * Writes output at `out[from]` onward until `to` (a copy may pass it by less than 64 bytes, for
   * which `out` has room). Returns where the output ends now, `from` when it needs more input, or
   * -1 when it needs bytes from further back than `out` holds.
   */
  step(out: Uint8Array, from: number, to: number): number;
  /** Fetches more input; throws when there is none left (the data stops short). */
  more(): Promise<void>;
  /** Throws unless all input was read and made exactly `total` bytes. */
  checkEnd(): void;
}

/** What a step may write past its `to`: the longest Snappy copy. */
const OVERSHOOT = 64;

/**
 * A window over a producer's output keeping `history` bytes behind what it has made, which the
 * producer may copy from. When a producer reaches further back (the format allows it, writers do
 * not do it), `restart` makes a fresh producer whose whole output is decoded at once: correct,
 * only not bounded.
 */
export class StreamWindow implements ByteWindow {
  bytes = new Uint8Array(0);
  at = 0;
  end = 0;
  /** Page position of bytes[0]. */
  private base = 0;

  constructor(private producer: Producer, private readonly history: number, private readonly chunk: number, private readonly restart: () => Producer) {}

  get left(): number {
    return this.producer.total - this.base - this.at;
  }

  async fill(count: number): Promise<void> {
    const wanted = Math.min(count, this.left);
    while (this.end - this.at < wanted) {
      const to = this.makeRoom(wanted);
      const end = this.producer.step(this.bytes, this.end, to);
      if (end < 0) return this.decodeWhole();
      if (end === this.end) await this.producer.more();
      this.end = end;
    }
  }

  async finish(): Promise<void> {
    // Read and dropped a chunk at a time: what a page holds past its values is not kept.
    while (this.left > 0) {
      this.at = this.end;
      await this.fill(Math.min(this.chunk, this.left));
    }
    this.producer.checkEnd();
  }

  /**
   * Where the producer may write up to: `wanted` past `at`, and at least a chunk past what is made,
   * so that asking for a few bytes more at a time still decodes a chunk at a time. The bytes not
   * read yet and the history behind the end move to the front of the array, or to a larger one
   * when they do not fit: the array is reused, so a page's chunks are not as many allocations.
   */
  private makeRoom(wanted: number): number {
    const ahead = Math.min(this.left, Math.max(wanted, this.end - this.at + this.chunk));
    if (this.at + ahead + OVERSHOOT <= this.bytes.length) return this.at + ahead;
    const keep = Math.max(0, Math.min(this.at, this.end - this.history));
    const size = this.at - keep + ahead + OVERSHOOT;
    if (size <= this.bytes.length) this.bytes.copyWithin(0, keep, this.end);
    else {
      const bytes = new Uint8Array(size);
      bytes.set(this.bytes.subarray(keep, this.end));
      this.bytes = bytes;
    }
    this.base += keep;
    this.at -= keep;
    this.end -= keep;
    return this.at + ahead;
  }

  /** The fallback: the whole output at once, read from where the window stands. */
  private async decodeWhole(): Promise<void> {
    const position = this.base + this.at;
    const producer = this.restart();
    const bytes = new Uint8Array(producer.total + OVERSHOOT);
    for (let end = 0; end < producer.total;) {
      const next = producer.step(bytes, end, producer.total);
      if (next === end) await producer.more();
      end = next;
    }
    this.producer = producer;
    this.bytes = bytes.subarray(0, producer.total);
    this.base = 0;
    this.at = position;
    this.end = producer.total;
  }
}
