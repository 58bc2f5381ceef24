import { isVector, type NumberVector } from '../formats/column-vector.js';
import { INVALID } from './coerce-value.js';
import { hashNumber, hashValue } from './key-hash.js';

/** One key column of a batch: values, or doubles (see column-vector.ts). */
export type KeyPart = ArrayLike<unknown> | NumberVector;

const TWO_POW_21 = 2 ** 21;

/**
 * The batch's key hashes, NaN where a part is null (or did not parse) or the row is skipped:
 * exactly keyHashAt's (key-values.ts), computed a part at a time over the whole batch, with no
 * array of parts built per row. A number hashes as the int64 it was read from would (hashValue
 * takes a bigint within ±(2^53 - 1) as its number), so a key read as a double in one file and as
 * a bigint in another collides as it should. A composite key is not packed into one integer
 * even where the footer would allow it: a row group packed and one not (or another file) would
 * then hash one key two ways; each part seeds the next as hashParts does, so every reading of a
 * key hashes alike, and the duplicates found are confirmed by value afterwards as before.
 */
export function keyHashesOf(parts: readonly KeyPart[], rowCount: number, skip?: Uint8Array): Float64Array {
  const hashes = new Float64Array(rowCount);
  if (skip) for (let i = 0; i < rowCount; i++) if (skip[i]) hashes[i] = NaN;
  const single = parts.length === 1;
  for (const part of parts) {
    if (isVector(part, 'number')) hashNumbers(hashes, part, single);
    else hashValues(hashes, part, single);
  }
  return hashes;
}


/** Folds a part into each row's hash: seeded by the hash so far as hashParts seeds it, or hashed alone as hashValue does. */
function hashNumbers(hashes: Float64Array, { values, present }: NumberVector, single: boolean): void {
  for (let i = 0; i < hashes.length; i++) {
    const hash = hashes[i]!;
    if (hash !== hash) continue;
    if (present !== undefined && present[i] === 0) hashes[i] = NaN;
    else hashes[i] = single ? hashNumber(values[i]!) : hashNumber(values[i]!, ((hash / TWO_POW_21) >>> 0) ^ 0x811c9dc5, (hash % TWO_POW_21) ^ 0x9747b28c);
  }
}

function hashValues(hashes: Float64Array, values: ArrayLike<unknown>, single: boolean): void {
  for (let i = 0; i < hashes.length; i++) {
    const hash = hashes[i]!;
    if (hash !== hash) continue;
    const value = values[i];
    if (value === null || value === undefined || value === INVALID) hashes[i] = NaN;
    else hashes[i] = single ? hashValue(value) : hashValue(value, ((hash / TWO_POW_21) >>> 0) ^ 0x811c9dc5, (hash % TWO_POW_21) ^ 0x9747b28c);
  }
}
