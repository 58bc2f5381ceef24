import { coerceFor, INVALID } from '../checks/coerce-value.js';
import type { ColumnType } from '../contract/column-type.js';
import { FALSE, jsonValue, NUMBER, STRING, TRUE } from './json-object-bytes.js';
import { NumberValues, ObjectValues, type ParsedValues } from './text-parsed-values.js';
import { booleanAt, decimalFits, integerAt, PlainDecimal } from './text-number-bytes.js';
import { InternedText } from './text-interning.js';
import { TimestampBytes } from './text-timestamp-bytes.js';

/**
 * The readers of parsed columns, one per contract type: each takes its type's common shapes
 * straight from the bytes (of a CSV field, or of a JSON token of the kind it reads) and leaves
 * the rest to the engine's rules (see text-parsed-values.ts).
 */
class StringValues extends ObjectValues {
  private readonly interned = new InternedText();

  protected readsJson(kind: number): boolean {
    return kind === STRING;
  }

  protected read(b: Buffer, start: number, end: number, ascii: boolean): boolean {
    this.values[this.count++] = ascii ? this.interned.text(b, start, end) : b.toString('utf8', start, end);
    return true;
  }
}

class IntegerValues extends NumberValues {
  private readonly min: number;
  private readonly max: number;

  constructor(type: ColumnType, batchRows: number, source: Source) {
    super(type, batchRows, source);
    // int64 beyond 15 digits (a bigint) is left to the rules.
    [this.min, this.max] = type.kind === 'int32' ? [-(2 ** 31), 2 ** 31 - 1] : [-Infinity, Infinity];
  }

  protected readsJson(kind: number): boolean {
    return kind === NUMBER;
  }

  protected read(b: Buffer, start: number, end: number): boolean {
    const value = integerAt(b, start, end);
    if (value === undefined || value < this.min || value > this.max) return false;
    this.storeNumber(value);
    return true;
  }
}

class FloatValues extends NumberValues {
  private readonly reader = new PlainDecimal();

  protected readsJson(kind: number): boolean {
    return kind === NUMBER;
  }

  protected read(b: Buffer, start: number, end: number): boolean {
    if (!this.reader.read(b, start, end)) return false;
    this.storeNumber(this.reader.value);
    return true;
  }
}

class DecimalValues extends NumberValues {
  private readonly reader = new PlainDecimal();
  /** A JSON number is checked as the text of the double it parses to (coerce-value.ts), and String(-0) is `0`. */
  private readonly unsignedZero: boolean;

  private readonly asWritten: (text: unknown) => unknown;

  constructor(private readonly type: Extract<ColumnType, { kind: 'decimal' }>, batchRows: number, source: Source) {
    super(type, batchRows, source);
    this.asWritten = coerceFor('text', type);
    this.unsignedZero = source === 'dynamic';
  }

  protected readsJson(kind: number): boolean {
    return kind === NUMBER;
  }

  /**
   * A JSON number past 15 digits is read as written where that fits the type (DuckDB writes
   * DECIMAL(38,10) so): parsed to a double first, it would be another number. One that does not
   * fit (pandas writes 9999999999.99 as 9999999999.9899997711) is the JSON number a reader sees.
   */
  override takeJson(b: Buffer, kind: number, start: number, end: number, ascii: boolean): void {
    if (kind !== NUMBER) return super.takeJson(b, kind, start, end, ascii);
    if (this.read(b, start, end)) return;
    const written = this.asWritten(b.toString('latin1', start, end));
    if (written === INVALID || written === null) this.byRules(jsonValue(b, kind, start, end, ascii));
    else this.store(written);
  }

  protected read(b: Buffer, start: number, end: number): boolean {
    if (!decimalFits(this.reader, b, start, end, this.type.precision, this.type.scale)) return false;
    const value = this.reader.value;
    this.storeNumber(this.unsignedZero && value === 0 ? 0 : value);
    return true;
  }
}

class BooleanValues extends ObjectValues {
  protected readsJson(kind: number): boolean {
    return kind === TRUE || kind === FALSE;
  }

  protected read(b: Buffer, start: number, end: number): boolean {
    const value = booleanAt(b, start, end);
    if (value === undefined) return false;
    this.store(value);
    return true;
  }
}

const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
/** A timestamp or date has at least this many bytes before anything varies: `2026-11-29T10:00`. */
const STAMP_PREFIX = 16;

/** Timestamps and dates, whichever kind `stamp` reads (see TimestampBytes). */
abstract class StampValues extends NumberValues {
  protected readonly stamps = new TimestampBytes();

  protected readsJson(kind: number): boolean {
    return kind === STRING;
  }

  protected abstract stamp(b: Buffer, start: number, end: number): boolean;

  protected read(b: Buffer, start: number, end: number): boolean {
    if (!this.stamp(b, start, end)) return false;
    this.storeNumber(this.stamps.millis);
    return true;
  }

  /**
   * Reads a field starting at `start` and finds its end itself, the delimiter looked for only
   * past the bytes every timestamp has (a third of a timestamped row is not compared twice);
   * -1, storing nothing, unless the field is a timestamp of this kind. A field shorter than that
   * prefix cannot pass for one: the prefix is checked digit by digit, and holds no delimiter.
   */
  scanBytes(b: Buffer, start: number, limit: number): number {
    let p = start + STAMP_PREFIX;
    if (p >= limit) return -1;
    for (let c = b[p]!; c !== COMMA && c !== LF; c = b[p]!) if (++p >= limit) return -1;
    const end = b[p] === LF && b[p - 1] === CR ? p - 1 : p;
    return this.read(b, start, end) ? p : -1;
  }
}

class InstantValues extends StampValues {
  protected stamp(b: Buffer, start: number, end: number): boolean {
    return this.stamps.instant(b, start, end);
  }
}

class WallClockValues extends StampValues {
  protected stamp(b: Buffer, start: number, end: number): boolean {
    return this.stamps.wallClock(b, start, end);
  }
}

class DateValues extends StampValues {
  protected stamp(b: Buffer, start: number, end: number): boolean {
    return this.stamps.date(b, start, end);
  }
}

type Source = 'text' | 'dynamic';

/** The reader that parses a column of the given contract type, from CSV fields or JSON values. */
export function parsedReader(type: ColumnType, batchRows: number, source: Source = 'text'): ParsedValues {
  switch (type.kind) {
    case 'string':
    case 'binary': return new StringValues(type, batchRows, source);
    case 'int32':
    case 'int64': return new IntegerValues(type, batchRows, source);
    case 'float32':
    case 'float64': return new FloatValues(type, batchRows, source);
    case 'decimal': return new DecimalValues(type, batchRows, source);
    case 'boolean': return new BooleanValues(type, batchRows, source);
    case 'date': return new DateValues(type, batchRows, source);
    case 'timestamp': return new InstantValues(type, batchRows, source);
    case 'timestamp_ntz': return new WallClockValues(type, batchRows, source);
  }
}
