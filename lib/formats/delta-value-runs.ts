import type { ColumnDecoder } from 'hyparquet/src/types.js';
import { convert } from './exact-decimals.js';
import { deltaBinaryUnpack } from 'hyparquet/src/delta.js';
import { hashByteRange } from '../checks/key-hash.js';
import { deltaDeclaredCount, deltaUnpack32 } from './delta-binary.js';
import type { ValueRun } from './page-value-runs.js';
import { UnreadableError } from './table-file.js';

/**
 * Delta-encoded values of a whole page (Parquet v2 writers such as DuckDB's use them for integers,
 * timestamps and strings), handed out a run at a time: the numbers or string lengths are unpacked
 * once into a typed array, 4 or 8 bytes a value, and each run converts only its own rows, where
 * decoding the page with hyparquet makes a JS value per row of the page at once. The page was
 * walked by page-checks.ts before: its streams end where they claim. 32-bit streams are decoded
 * by delta-binary.ts, modulo 2^32 (hyparquet misreads a first value wider than 32 bits); 64-bit
 * ones by hyparquet, whose BigInt decoder is exact.
 */
export function deltaReadable(encoding: string | undefined, decoder: ColumnDecoder): boolean {
  if (encoding === 'DELTA_BINARY_PACKED') return decoder.type === 'INT32' || decoder.type === 'INT64';
  return encoding === 'DELTA_LENGTH_BYTE_ARRAY' && decoder.type === 'BYTE_ARRAY';
}

/** Values (or, `hashed`, key hashes) of a page's delta stream, which `deltaReadable` accepts; a page holds at most `rows`. */
export function deltaRun(values: Uint8Array, encoding: string | undefined, decoder: ColumnDecoder, hashed: boolean, rows: number): ValueRun {
  const total = deltaDeclaredCount(values, 0);
  if (total > rows) throw new UnreadableError(`a delta-encoded page declares ${total} values in a page of ${rows} rows`);
  const converting: ColumnDecoder = { ...decoder, compressors: {} };
  if (encoding === 'DELTA_BINARY_PACKED') {
    const numbers = decoder.type === 'INT32' ? new Int32Array(total) : new BigInt64Array(total);
    if (numbers instanceof Int32Array) deltaUnpack32(values, 0, total, numbers);
    else deltaBinaryUnpack({ view: new DataView(values.buffer, values.byteOffset, values.byteLength), offset: 0 }, total, numbers);
    let at = 0;
    return async (count) => {
      short(at + count, total);
      return convert(numbers.subarray(at, (at += count)), converting);
    };
  }
  const lengths = new Int32Array(total);
  let offset = deltaUnpack32(values, 0, total, lengths);
  let next = 0;
  return async (count) => {
    short(next + count, total);
    const out = hashed ? new Float64Array(count) : new Array<Uint8Array>(count);
    for (let i = 0; i < count; i++, next++) {
      const end = offset + lengths[next]!;
      if (end > values.length || lengths[next]! < 0) throw new UnreadableError(`string ${next} of a delta-encoded page runs past its end`);
      out[i] = hashed ? hashByteRange(values, offset, end) : values.subarray(offset, end);
      offset = end;
    }
    return hashed ? out : convert(out as Uint8Array[], converting);
  };
}

/** A stream that declares fewer values than its page stores would leave rows without a value: refused, never read short. */
function short(wanted: number, total: number): void {
  if (wanted > total) throw new UnreadableError(`a delta-encoded page declares ${total} values but its levels store ${wanted}`);
}
