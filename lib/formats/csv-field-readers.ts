import { hashByteRange, hashString } from '../checks/key-hash.js';
import { HAS_ESCAPES, type CsvRecord } from './csv-record.js';
import type { UnparsedField } from './table-file.js';

/**
 * Turns one column's fields, record by record, into what a batch carries for it: the text
 * (`values`), the checked representation (`parsed`, see BatchOptions.parse) or key hashes
 * (`hashes`, see BatchOptions.hashOnly).
 */
export interface FieldReader {
  readonly output: 'values' | 'parsed' | 'hashes';
  /** Appends field `index` of a record that was read. */
  take(record: CsvRecord, index: number): void;
  /**
   * Appends an unquoted field, bytes [start, end) of `b`, valid UTF-8 and ASCII if `ascii` (see
   * CsvBatchBuilder.addUnquoted): the common case, read without a record in between.
   */
  takeBytes(b: Buffer, start: number, end: number, ascii: boolean): void;
  /**
   * Like takeBytes for a field starting at `start` whose end it finds itself, faster than a
   * search for the delimiter; returns the delimiter's index, or -1 having taken nothing.
   */
  scanBytes?(b: Buffer, start: number, limit: number): number;
  /** Takes back the last value appended: its record turned out not to be one to read so. */
  retract(): void;
  /** Appends a row that could not be read. */
  skip(): void;
  /** What was appended since the last flush. */
  flush(): ArrayLike<unknown>;
  /** `parsed` readers: the fields since the last call that did not parse (INVALID in the values). */
  takeUnparsed?(): UnparsedField[];
}

/** The text of each field, null for an empty unquoted one: what the engine's text rules read. */
export class TextValues implements FieldReader {
  readonly output = 'values';
  private readonly values: BatchValues;

  constructor(batchRows: number) {
    this.values = new BatchValues(batchRows);
  }

  take(record: CsvRecord, index: number): void {
    this.values.push(record.field(index));
  }

  takeBytes(b: Buffer, start: number, end: number, ascii: boolean): void {
    this.values.push(start === end ? null : b.toString(ascii ? 'latin1' : 'utf8', start, end));
  }

  retract(): void {
    this.values.count--;
  }

  skip(): void {
    this.values.push(undefined);
  }

  flush(): ArrayLike<unknown> {
    return this.values.flush();
  }
}

/**
 * One batch's values of a column, in an array allocated at its full size: growing by push copies
 * the values again and again (young-generation garbage the collector then copies too), and an
 * array of only numbers stays one of unboxed doubles.
 */
export class BatchValues {
  values: unknown[];
  count = 0;

  constructor(private readonly batchRows: number) {
    this.values = new Array<unknown>(batchRows);
  }

  push(value: unknown): void {
    this.values[this.count++] = value;
  }

  flush(): unknown[] {
    const values = this.values;
    values.length = this.count;
    this.values = new Array<unknown>(this.batchRows);
    this.count = 0;
    return values;
  }
}

/**
 * A string key's hash from the field's bytes, as checks/key-hash.ts hashes the string they spell
 * (its UTF-8 bytes): no string per row. NaN for null, as for Parquet's hashed columns.
 */
export class HashedText implements FieldReader {
  readonly output = 'hashes';
  private hashes: Float64Array;
  private count = 0;

  constructor(private readonly batchRows: number) {
    this.hashes = new Float64Array(batchRows);
  }

  take(record: CsvRecord, index: number): void {
    const start = record.starts[index]!;
    const end = record.ends[index]!;
    const flags = record.flags[index]!;
    let hash = NaN;
    if (flags & HAS_ESCAPES) hash = hashString(record.field(index)!);
    else if (flags !== 0 || start !== end) hash = hashByteRange(record.bytes, record.recordStart + start, record.recordStart + end);
    this.hashes[this.count++] = hash;
  }

  takeBytes(b: Buffer, start: number, end: number): void {
    this.hashes[this.count++] = start === end ? NaN : hashByteRange(b, start, end);
  }

  retract(): void {
    this.count--;
  }

  skip(): void {
    this.hashes[this.count++] = NaN;
  }

  flush(): Float64Array {
    // The engine keeps a full batch's hashes as they are (checks/key-hashes.ts): a fresh array each time.
    const hashes = this.count === this.hashes.length ? this.hashes : this.hashes.slice(0, this.count);
    this.hashes = new Float64Array(this.batchRows);
    this.count = 0;
    return hashes;
  }
}
