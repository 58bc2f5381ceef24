import type { Encoding, ParquetType } from 'hyparquet';
import { checkDeltaByteArray, walkDeltaStream } from './delta-streams.js';
import { checkRuns } from './rle-runs.js';
import { UnreadableError } from './table-file.js';

/**
 * Where a data page keeps the streams hyparquet sizes its work by, mirrored from its decoder
 * (datapage.js): definition levels, then values that are dictionary indices, RLE booleans or
 * delta streams. Plain values need nothing: their decoders stop at the end of the bytes.
 */
export interface PageShape {
  readonly version: 1 | 2;
  readonly encoding: Encoding | undefined;
  /** The chunk's physical type, which the decoder picks by. */
  readonly type: ParquetType | undefined;
  /** Level entries in the page (num_values). */
  readonly values: number;
  /** Values actually stored (not null): num_values - num_nulls for v2; counted from the levels for v1. */
  readonly stored: number;
  /** The column has definition levels (it is not REQUIRED). */
  readonly defined: boolean;
  /** 32-bit delta streams are decoded by delta-binary.ts, which reads them at any width; otherwise by hyparquet (see walkDeltaStream). */
  readonly wideDeltas?: boolean;
}

/** A v1 data page, decompressed: definition levels (length-prefixed), then values. */
export function checkPageV1(page: Uint8Array, shape: PageShape): void {
  if (!shape.defined) return checkValues(page, 0, shape);
  // As hyparquet does: values stored are the levels at the maximum (1 for a top-level column).
  const stored = checkRuns(page, 4, 1, shape.values, 'definition levels');
  const at = 4 + (page.length >= 4 ? new DataView(page.buffer, page.byteOffset, page.byteLength).getUint32(0, true) : 0);
  checkValues(page, at, { ...shape, stored });
}

/** A v2 page's definition levels, which v2 keeps uncompressed at the start of the page data. */
export function checkLevelsV2(data: Uint8Array, repetitionBytes: number, shape: PageShape): void {
  if (shape.defined) checkRuns(data, repetitionBytes, 1, shape.values, 'definition levels');
}

export function checkValues(page: Uint8Array, at: number, shape: PageShape): void {
  switch (shape.encoding) {
    case 'PLAIN_DICTIONARY': case 'RLE_DICTIONARY': return checkIndices(page, at, shape);
    case 'RLE': return shape.version === 1 && shape.type !== 'BOOLEAN' ? checkIndices(page, at, shape) : void checkRuns(page, at + 4, 1, shape.stored, 'boolean runs');
    case 'DELTA_BINARY_PACKED': return void walkDeltaStream(page, at, shape.stored, 'delta values', shape.type === 'INT32' && !shape.wideDeltas);
    case 'DELTA_LENGTH_BYTE_ARRAY': return void walkDeltaStream(page, at, shape.stored, 'delta lengths', !shape.wideDeltas);
    case 'DELTA_BYTE_ARRAY': return checkDeltaByteArray(page, at, shape.stored);
  }
}

/** A bit width byte, then runs; v1 booleans have an implied width and a length prefix instead. */
function checkIndices(page: Uint8Array, at: number, shape: PageShape): void {
  if (shape.version === 1 && shape.type === 'BOOLEAN') return void checkRuns(page, at + 4, 1, shape.stored, 'boolean runs');
  const width = page[at];
  // v1 treats width 0 as "all zero" and reads no runs; v2 reads runs regardless.
  if (width === undefined || (shape.version === 1 && width === 0)) return;
  if (width > 32) throw new UnreadableError(`dictionary indices claim a bit width of ${width}; at most 32 is possible`);
  checkRuns(page, at + 1, width, shape.stored, 'dictionary indices');
}
