/**
 * A column of a batch delivered as typed memory instead of one JS value per row (issue 32): the
 * check loop then runs one rule type per loop over the whole vector, with no value boxed and no
 * closure called per row. A reader delivers a vector only where it can do so exactly; anything
 * else stays an ArrayLike in ColumnBatch.columns. `materialize` gives any vector back as the
 * ArrayLike the rest of the engine takes, for the rare consumer that needs a value per row.
 */
export type ColumnVector = NumberVector | DictionaryVector | ByteVector;

/**
 * Numbers exactly as the engine checks them (epoch ms for dates and timestamps, integers whose
 * magnitude is below 2^53): `values[i]` is meaningless where `present[i] === 0`.
 */
export interface NumberVector {
  readonly kind: 'number';
  readonly values: Float64Array;
  /** 1 where the row has a value, 0 for null; absent when every row has one. */
  readonly present?: Uint8Array;
}

/**
 * Dictionary-encoded values: the dictionary's entries as the engine takes them (decided once per
 * entry) and one index per row into it, -1 for null.
 */
export interface DictionaryVector {
  readonly kind: 'dictionary';
  readonly entries: ArrayLike<unknown>;
  readonly indices: Int32Array;
}

/**
 * UTF-8 strings as bytes: row i is `bytes[offsets[i], offsets[i + 1])`; a null row has an empty
 * range and `present[i] === 0`.
 */
export interface ByteVector {
  readonly kind: 'bytes';
  readonly bytes: Uint8Array;
  /** rowCount + 1 offsets into `bytes`. */
  readonly offsets: Int32Array;
  readonly present?: Uint8Array;
}

/** Whether a batch's column arrived as a vector (of `kind`, when named) rather than as values: arrays and typed arrays have no `kind`. */
export function isVector(value: unknown): value is ColumnVector;
export function isVector<K extends ColumnVector['kind']>(value: unknown, kind: K): value is Extract<ColumnVector, { kind: K }>;
export function isVector(value: unknown, kind?: ColumnVector['kind']): boolean {
  const found = typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  return kind === undefined ? found !== undefined : found === kind;
}

export function vectorLength(vector: ColumnVector): number {
  if (vector.kind === 'number') return vector.values.length;
  if (vector.kind === 'dictionary') return vector.indices.length;
  return vector.offsets.length - 1;
}

/** As column-decoder.ts reads text: a leading U+FEFF is data. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Row i's value as ColumnBatch.columns would hold it (null for null). */
export function vectorValueAt(vector: ColumnVector, i: number): unknown {
  if (vector.kind === 'number') return vector.present && vector.present[i] === 0 ? null : vector.values[i];
  if (vector.kind === 'dictionary') {
    const index = vector.indices[i]!;
    return index < 0 ? null : vector.entries[index];
  }
  if (vector.present && vector.present[i] === 0) return null;
  return utf8.decode(vector.bytes.subarray(vector.offsets[i], vector.offsets[i + 1]));
}

/** The whole vector as an array of values (null for null): for consumers that need a value per row. */
export function materialize(vector: ColumnVector): unknown[] {
  const length = vectorLength(vector);
  const out = new Array<unknown>(length);
  for (let i = 0; i < length; i++) out[i] = vectorValueAt(vector, i);
  return out;
}
