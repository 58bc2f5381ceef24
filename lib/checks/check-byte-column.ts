import { UNDECIDED } from '../contract/pattern-bytes.js';
import { isVector, type ByteVector } from '../formats/column-vector.js';
import { TEXT, utf8CodePoints } from '../formats/utf8-bytes.js';
import { MAX_SAMPLES } from '../report/report.js';
import { byteRulesFor, type ByteRule } from './byte-rules.js';
import { INVALID } from './coerce-value.js';
import { hashByteRange, hashString, hashValue } from './key-hash.js';
import type { PartitionState } from './partition-state.js';
import { toSampleValue } from './sample-value.js';
import type { ReadableColumn } from './schema-check.js';

/** What of a batch a string column delivered as bytes is checked with. */
export interface ByteColumnBatch {
  readonly state: PartitionState;
  readonly file: string;
  readonly rowStart: number;
  /** 1 at the index of a row that could not be read. */
  readonly skip: Uint8Array | undefined;
  /** `required_when`: whether row i's condition column holds a listed value. */
  readonly condition: ((row: number) => boolean) | undefined;
}

/**
 * Checks a string column delivered as UTF-8 bytes (byte-columns in byte-rules.ts): its nulls,
 * then each rule in one loop over the whole vector, a value decoded only where a rule has no
 * answer on its bytes or for a sample. Counts and samples are the ones checking the decoded
 * strings gives: a rule's findings come in row order, and a batch's findings past the log's
 * MAX_SAMPLES for a rule carry no value, as the log keeps none of them.
 */
export function checkByteColumn(batch: ByteColumnBatch, column: ReadableColumn, vector: ByteVector): void {
  checkNulls(batch, column, vector);
  for (const rule of byteRulesFor(column.plan) ?? []) {
    const failed = recorder(batch, column, vector, rule);
    if (rule.kind === 'pattern') checkPattern(batch, vector, rule, failed);
    else if (rule.kind === 'length') checkLength(batch, vector, rule, failed);
    else checkEnum(batch, vector, rule, failed);
  }
}

type Failed = (row: number) => void;

function recorder(batch: ByteColumnBatch, { plan: { spec } }: ReadableColumn, vector: ByteVector, { rule }: ByteRule): Failed {
  let sampled = 0;
  return (i) => {
    const value = sampled++ < MAX_SAMPLES ? toSampleValue(decoded(vector, i), spec.type) : null;
    batch.state.rowFailed(rule.rule, spec.name, rule.detail, { file: batch.file, row: batch.rowStart + i, value });
  };
}

function checkNulls(batch: ByteColumnBatch, { plan }: ReadableColumn, vector: ByteVector): void {
  const { present } = vector;
  const { spec, mustHaveValue } = plan;
  if (!present || (!mustHaveValue && !batch.condition)) return;
  const missing = `{count} {row|rows} {has|have} no value for ${spec.name}`;
  const missingWhen = spec.requiredWhen ? `${missing} although ${spec.requiredWhen.column} is ${spec.requiredWhen.in.join(' or ')}` : missing;
  for (let i = 0; i < present.length; i++) {
    if (present[i] !== 0 || batch.skip?.[i]) continue;
    const sample = { file: batch.file, row: batch.rowStart + i, value: null };
    if (mustHaveValue) batch.state.rowFailed('required', spec.name, missing, sample);
    else if (batch.condition!(i)) batch.state.rowFailed('required', spec.name, missingWhen, sample);
  }
}

function checkPattern(batch: ByteColumnBatch, { bytes, offsets, present }: ByteVector, { rule, matcher }: Extract<ByteRule, { kind: 'pattern' }>, failed: Failed): void {
  const { skip } = batch;
  const rows = offsets.length - 1;
  for (let i = 0; i < rows; i++) {
    if ((present && present[i] === 0) || skip?.[i]) continue;
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    let matched = matcher ? matcher.matchBytes(bytes, start, end) : UNDECIDED;
    if (matched === UNDECIDED) matched = rule.fails(TEXT.decode(bytes.subarray(start, end))) ? 0 : 1;
    if (matched === 0) failed(i);
  }
}

/** Code points, as the rule counts them on text: a UTF-8 value has at most one per byte and at least one per four. */
function checkLength(batch: ByteColumnBatch, { bytes, offsets, present }: ByteVector, { rule, min, max }: Extract<ByteRule, { kind: 'length' }>, failed: Failed): void {
  const { skip } = batch;
  const rows = offsets.length - 1;
  for (let i = 0; i < rows; i++) {
    if ((present && present[i] === 0) || skip?.[i]) continue;
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    const size = end - start;
    if (size <= max && size >= 4 * min) continue;
    const points = utf8CodePoints(bytes, start, end);
    const fails = points < 0 ? rule.fails(TEXT.decode(bytes.subarray(start, end))) : points < min || points > max;
    if (fails) failed(i);
  }
}

function checkEnum(batch: ByteColumnBatch, { bytes, offsets, present }: ByteVector, { rule, entries }: Extract<ByteRule, { kind: 'enum' }>, failed: Failed): void {
  const { skip } = batch;
  const rows = offsets.length - 1;
  for (let i = 0; i < rows; i++) {
    if ((present && present[i] === 0) || skip?.[i]) continue;
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    const fails = utf8CodePoints(bytes, start, end) < 0 ? rule.fails(TEXT.decode(bytes.subarray(start, end))) : !entries.has(bytes, start, end);
    if (fails) failed(i);
  }
}

/**
 * One key hash per row, NaN for null or a skipped row: equal to hashing the decoded string
 * (key-hash.ts hashes text as its UTF-8 bytes), which only a malformed value needs decoding for.
 */
export function byteKeyHashes({ bytes, offsets, present }: ByteVector, skip: Uint8Array | undefined): Float64Array {
  const rows = offsets.length - 1;
  const hashes = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    if ((present && present[i] === 0) || skip?.[i]) {
      hashes[i] = NaN;
      continue;
    }
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    hashes[i] = utf8CodePoints(bytes, start, end) < 0 ? hashString(TEXT.decode(bytes.subarray(start, end))) : hashByteRange(bytes, start, end);
  }
  return hashes;
}

const TWO_POW_21 = 2 ** 21;

/**
 * A composite key's hash per row, NaN where a part is null or the row skipped: hashParts of the
 * parts' values (key-hash.ts, each part seeding the next), a part delivered as bytes hashed from them.
 */
export function compositeKeyHashes(parts: readonly (ArrayLike<unknown> | ByteVector)[], rows: number, skip: Uint8Array | undefined): Float64Array {
  const hashes = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let hash = skip?.[i] ? NaN : 0;
    for (let p = 0; p < parts.length && hash === hash; p++) {
      const seedA = ((hash / TWO_POW_21) >>> 0) ^ 0x811c9dc5;
      const seedB = (hash % TWO_POW_21) ^ 0x9747b28c;
      const part = parts[p]!;
      if (!isVector(part, 'bytes')) {
        const value = part[i];
        hash = value === null || value === undefined || value === INVALID ? NaN : hashValue(value, seedA, seedB);
        continue;
      }
      if (part.present && part.present[i] === 0) {
        hash = NaN;
        continue;
      }
      const start = part.offsets[i]!;
      const end = part.offsets[i + 1]!;
      const { bytes } = part;
      hash = utf8CodePoints(bytes, start, end) < 0 ? hashString(TEXT.decode(bytes.subarray(start, end)), seedA, seedB) : hashByteRange(bytes, start, end, seedA, seedB);
    }
    hashes[i] = hash;
  }
  return hashes;
}


function decoded({ bytes, offsets }: ByteVector, i: number): string {
  return TEXT.decode(bytes.subarray(offsets[i], offsets[i + 1]));
}
