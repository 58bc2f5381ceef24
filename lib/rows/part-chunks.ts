/** S3 multipart parts must be 5 MiB but the last; 8 MiB leaves room and keeps a part per request small. */
export const PART_BYTES = 8 * 1024 * 1024;

/**
 * Packs bytes into chunks of exactly `partBytes` (the last one shorter), copying as it goes, so a
 * caller may hand over views of a buffer it reuses. Memory stays at one part being filled plus
 * the full parts not yet taken.
 */
export class PartChunks {
  private part: Uint8Array;
  private filled = 0;
  private readonly full: Uint8Array[] = [];

  constructor(private readonly partBytes = PART_BYTES) {
    this.part = new Uint8Array(partBytes);
  }

  push(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      const take = Math.min(bytes.length - at, this.partBytes - this.filled);
      this.part.set(bytes.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === this.partBytes) {
        this.full.push(this.part);
        this.part = new Uint8Array(this.partBytes);
        this.filled = 0;
      }
    }
  }

  /** The full parts so far, handed over once. */
  takeFull(): Uint8Array[] {
    return this.full.splice(0);
  }

  /** Every part left, the short last one included. */
  takeRest(): Uint8Array[] {
    const rest = this.takeFull();
    if (this.filled > 0) rest.push(this.part.slice(0, this.filled));
    this.filled = 0;
    return rest;
  }
}

/** The chunks of `pieces` repacked into parts (see PartChunks). */
export async function* inParts(pieces: AsyncIterable<Uint8Array>, partBytes = PART_BYTES): AsyncGenerator<Uint8Array> {
  const parts = new PartChunks(partBytes);
  for await (const piece of pieces) {
    parts.push(piece);
    yield* parts.takeFull();
  }
  yield* parts.takeRest();
}
