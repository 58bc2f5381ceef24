import { coerceFor, INVALID, type Coerce } from '../checks/coerce-value.js';
import { hashByteRange, hashString } from '../checks/key-hash.js';
import type { ColumnType } from '../contract/column-type.js';
import { HAS_ESCAPES, type CsvRecord } from './csv-scanner.js';
import { booleanAt, decimalFits, integerAt, PlainDecimal } from './text-number-bytes.js';
import { InternedText } from './text-interning.js';
import { TimestampBytes } from './text-timestamp-bytes.js';
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

/**
 * Values parsed by the column's contract type: each type's common shapes straight from the bytes
 * (`read`), anything else by the text rules the engine would apply (coerce-value.ts), so both
 * roads give the same value. A field that does not parse is INVALID, its text listed for the
 * engine to report as a `type` violation; null as the text rules have it (a quoted empty field
 * is null except in string and binary columns).
 */
abstract class ParsedValues implements FieldReader {
  readonly output = 'parsed';
  protected readonly values: BatchValues;
  private unparsed: UnparsedField[] = [];
  private readonly coerce: Coerce;
  private readonly emptyIsNull: boolean;

  constructor(type: ColumnType, batchRows: number) {
    this.values = new BatchValues(batchRows);
    this.coerce = coerceFor('text', type);
    this.emptyIsNull = type.kind !== 'string' && type.kind !== 'binary';
  }

  /**
   * Appends the value of bytes [start, end), a field without escapes, and says true; false to
   * leave the field to the text rules. Storing here rather than returning keeps a double unboxed.
   */
  protected abstract read(b: Buffer, start: number, end: number, ascii: boolean): boolean;

  take(record: CsvRecord, index: number): void {
    const start = record.recordStart + record.starts[index]!;
    const end = record.recordStart + record.ends[index]!;
    const flags = record.flags[index]!;
    if (start === end && (flags === 0 || this.emptyIsNull)) this.values.push(null);
    else if (flags & HAS_ESCAPES || !this.read(record.bytes, start, end, record.ascii)) this.byTextRules(record.field(index)!);
  }

  skip(): void {
    this.values.push(undefined);
  }

  flush(): ArrayLike<unknown> {
    return this.values.flush();
  }

  takeUnparsed(): UnparsedField[] {
    const unparsed = this.unparsed;
    this.unparsed = [];
    return unparsed;
  }

  private byTextRules(text: string): void {
    const value = this.coerce(text);
    if (value === INVALID) this.unparsed.push({ index: this.values.count, text });
    this.values.push(value);
  }
}

class StringValues extends ParsedValues {
  private readonly interned = new InternedText();

  protected read(b: Buffer, start: number, end: number, ascii: boolean): boolean {
    this.values.push(ascii ? this.interned.text(b, start, end) : b.toString('utf8', start, end));
    return true;
  }
}

class IntegerValues extends ParsedValues {
  private readonly min: number;
  private readonly max: number;

  constructor(type: ColumnType, batchRows: number) {
    super(type, batchRows);
    // int64 beyond 15 digits (a bigint) is left to the text rules.
    [this.min, this.max] = type.kind === 'int32' ? [-(2 ** 31), 2 ** 31 - 1] : [-Infinity, Infinity];
  }

  protected read(b: Buffer, start: number, end: number): boolean {
    const value = integerAt(b, start, end);
    if (value === undefined || value < this.min || value > this.max) return false;
    this.values.push(value);
    return true;
  }
}

class FloatValues extends ParsedValues {
  private readonly reader = new PlainDecimal();

  protected read(b: Buffer, start: number, end: number): boolean {
    if (!this.reader.read(b, start, end)) return false;
    this.values.push(this.reader.value);
    return true;
  }
}

class DecimalValues extends ParsedValues {
  private readonly reader = new PlainDecimal();

  constructor(private readonly type: Extract<ColumnType, { kind: 'decimal' }>, batchRows: number) {
    super(type, batchRows);
  }

  protected read(b: Buffer, start: number, end: number): boolean {
    if (!decimalFits(this.reader, b, start, end, this.type.precision, this.type.scale)) return false;
    this.values.push(this.reader.value);
    return true;
  }
}

class BooleanValues extends ParsedValues {
  protected read(b: Buffer, start: number, end: number): boolean {
    const value = booleanAt(b, start, end);
    if (value === undefined) return false;
    this.values.push(value);
    return true;
  }
}

class InstantValues extends ParsedValues {
  private readonly stamps = new TimestampBytes();

  protected read(b: Buffer, start: number, end: number): boolean {
    if (!this.stamps.instant(b, start, end)) return false;
    this.values.push(this.stamps.millis);
    return true;
  }
}

class WallClockValues extends ParsedValues {
  private readonly stamps = new TimestampBytes();

  protected read(b: Buffer, start: number, end: number): boolean {
    if (!this.stamps.wallClock(b, start, end)) return false;
    this.values.push(this.stamps.millis);
    return true;
  }
}

class DateValues extends ParsedValues {
  private readonly stamps = new TimestampBytes();

  protected read(b: Buffer, start: number, end: number): boolean {
    if (!this.stamps.date(b, start, end)) return false;
    this.values.push(this.stamps.millis);
    return true;
  }
}

/** The reader that parses a column of the given contract type. */
export function parsedReader(type: ColumnType, batchRows: number): FieldReader {
  switch (type.kind) {
    case 'string':
    case 'binary': return new StringValues(type, batchRows);
    case 'int32':
    case 'int64': return new IntegerValues(type, batchRows);
    case 'float32':
    case 'float64': return new FloatValues(type, batchRows);
    case 'decimal': return new DecimalValues(type, batchRows);
    case 'boolean': return new BooleanValues(type, batchRows);
    case 'date': return new DateValues(type, batchRows);
    case 'timestamp': return new InstantValues(type, batchRows);
    case 'timestamp_ntz': return new WallClockValues(type, batchRows);
  }
}
