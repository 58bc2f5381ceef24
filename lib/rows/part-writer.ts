import { ByteWriter } from 'hyparquet-writer';
import type { PartChunks } from './part-chunks.js';

/** Bytes held before they go to the parts: a page or two, not a row group. */
const BUFFER_BYTES = 1024 * 1024;

/**
 * hyparquet-writer's output sink: appends go to a buffer that is handed to `parts` whenever the
 * next append would not fit (as its own fileWriter does), so the writer never holds a whole row
 * group's bytes, only what the caller has not taken from `parts` yet. `offset` counts on.
 */
export class PartWriter extends ByteWriter {
  constructor(private readonly parts: PartChunks) {
    super(BUFFER_BYTES);
  }

  override ensure(size: number): void {
    if (this.index > 0 && this.index + size > this.buffer.byteLength) this.drain();
    super.ensure(size);
  }

  flush(): void {
    this.drain();
  }

  override finish(): void {
    this.drain();
  }

  override getBuffer(): ArrayBuffer {
    throw new Error('PartWriter hands its bytes to its parts');
  }

  override getBytes(): Uint8Array<ArrayBuffer> {
    throw new Error('PartWriter hands its bytes to its parts');
  }

  private drain(): void {
    if (this.index === 0) return;
    this.parts.push(new Uint8Array(this.buffer, 0, this.index));
    this.index = 0;
  }
}
