import type { ByteWindow } from './byte-window.js';
import type { ByteVector } from './column-vector.js';
import { UnreadableError } from './table-file.js';

const UTF8 = new TextEncoder();

/**
 * Builds one batch's ByteVector of a string column row by row: values copied out of page bytes
 * (PLAIN byte arrays, see sliced-page.ts) or, for a page read another way (a dictionary page),
 * decoded strings written back as UTF-8, which decode to the same strings again.
 */
export class ByteColumnBuilder {
  private bytes: Uint8Array;
  private size = 0;
  private row = 0;
  private readonly offsets: Int32Array;
  private present: Uint8Array | undefined;

  constructor(private readonly rows: number, bytesHint = rows * 16) {
    this.offsets = new Int32Array(rows + 1);
    this.bytes = new Uint8Array(Math.max(64, bytesHint));
  }

  appendNull(): void {
    if (!this.present) this.present = new Uint8Array(this.rows).fill(1);
    this.present[this.row] = 0;
    this.offsets[++this.row] = this.size;
  }

  /** Appends bytes [start, end) of `source` as the next row's value. */
  append(source: Uint8Array, start: number, end: number): void {
    const length = end - start;
    if (this.size + length > this.bytes.length) this.grow(length);
    const { bytes } = this;
    let at = this.size;
    // A short value copies faster byte by byte than through a subarray and set().
    if (length <= 64) for (let i = start; i < end; i++) bytes[at++] = source[i]!;
    else {
      bytes.set(source.subarray(start, end), at);
      at += length;
    }
    this.size = at;
    this.offsets[++this.row] = at;
  }

  /**
   * Appends the next `count` rows from a page's PLAIN byte arrays (each a 4-byte length and its
   * bytes); `levels[i]` is 1 where row i has a value (absent: every row has one). The window is
   * filled and a short page told as page-value-runs.ts's byteArrays does, so a broken page fails
   * with the same words whichever way its strings are read.
   */
  async appendPlain(window: ByteWindow, count: number, levels: Uint8Array | undefined): Promise<void> {
    let span = 0;
    for (let i = 0; i < count;) {
      const { bytes, end } = window;
      const base = window.at;
      // As many values as lie whole in the window, without an await.
      for (; i < count; i++) {
        if (levels && levels[i] !== 1) {
          this.appendNull();
          continue;
        }
        const at = base + span;
        if (at + 4 > end) break;
        const stop = at + 4 + bytes[at]! + bytes[at + 1]! * 2 ** 8 + bytes[at + 2]! * 2 ** 16 + bytes[at + 3]! * 2 ** 24;
        if (stop > end) break;
        this.append(bytes, at + 4, stop);
        span = stop - base;
      }
      if (i < count) await fillValue(window, span);
    }
    window.at += span;
  }

  /** Appends decoded values (strings, null for null) as rows. */
  appendValues(values: ArrayLike<unknown>): void {
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (value === null || value === undefined) {
        this.appendNull();
        continue;
      }
      if (typeof value !== 'string') throw new TypeError(`a text column's page holds a ${typeof value}, not a string`);
      // At most three bytes a UTF-16 unit.
      if (this.size + value.length * 3 > this.bytes.length) this.grow(value.length * 3);
      this.size += UTF8.encodeInto(value, this.bytes.subarray(this.size)).written;
      this.offsets[++this.row] = this.size;
    }
  }

  finish(): ByteVector {
    return { kind: 'bytes', bytes: this.bytes.subarray(0, this.size), offsets: this.offsets, ...(this.present ? { present: this.present } : {}) };
  }

  private grow(needed: number): void {
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.size + needed));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
  }
}

/** Makes the value `span` bytes past `at` whole in the window, or fails in page-value-runs.ts's byteArrays' words. */
async function fillValue(window: ByteWindow, span: number): Promise<void> {
  if (window.end - window.at < span + 4) await window.fill(span + 4);
  if (window.end - window.at < span + 4) throw new UnreadableError(`a page ends inside the length of a value, ${span} bytes into a run`);
  const { bytes, at } = window;
  const next = span + 4 + bytes[at + span]! + bytes[at + span + 1]! * 2 ** 8 + bytes[at + span + 2]! * 2 ** 16 + bytes[at + span + 3]! * 2 ** 24;
  if (window.end - window.at < next) await window.fill(next);
  if (window.end - window.at < next) throw new UnreadableError(`a value runs ${next - (window.end - window.at)} bytes past the end of its page`);
}
