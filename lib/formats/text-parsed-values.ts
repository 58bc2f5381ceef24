import { coerceFor, INVALID, type Coerce } from '../checks/coerce-value.js';
import type { ColumnType } from '../contract/column-type.js';
import type { FieldReader } from './csv-field-readers.js';
import { HAS_ESCAPES, type CsvRecord } from './csv-record.js';
import { jsonValue, STRING } from './json-object-bytes.js';
import type { UnparsedField } from './table-file.js';

/**
 * Values parsed by the column's contract type: each type's common shapes straight from the bytes
 * (`read`), anything else by the rules the engine would apply (coerce-value.ts: the text rules
 * for CSV, the JSON ones for JSON Lines), so both roads give the same value. A value that does
 * not parse is INVALID, listed with what the file held for the engine to report as a `type`
 * violation; null as the rules have it (a quoted empty CSV field is null except in string and
 * binary columns).
 */
export abstract class ParsedValues implements FieldReader {
  readonly output = 'parsed';
  protected count = 0;
  private unparsed: UnparsedField[] = [];
  private readonly coerce: Coerce;
  private readonly emptyIsNull: boolean;

  constructor(type: ColumnType, protected readonly batchRows: number, source: 'text' | 'dynamic' = 'text') {
    this.coerce = coerceFor(source, type);
    this.emptyIsNull = type.kind !== 'string' && type.kind !== 'binary';
  }

  /** Whether `read` takes a JSON token of this kind (json-object-bytes.ts), the quotes of a string left out. */
  protected abstract readsJson(kind: number): boolean;

  /**
   * Stores the value of bytes [start, end), a field without escapes, and says true; false leaves
   * the field to the text rules. Each subclass stores in its own code, so doubles stay unboxed.
   */
  protected abstract read(b: Buffer, start: number, end: number, ascii: boolean): boolean;

  /** Stores any value: null, undefined, INVALID, or what the text rules made of a field. */
  protected abstract store(value: unknown): void;

  abstract flush(): ArrayLike<unknown>;

  take(record: CsvRecord, index: number): void {
    const start = record.recordStart + record.starts[index]!;
    const end = record.recordStart + record.ends[index]!;
    const flags = record.flags[index]!;
    if (start === end && (flags === 0 || this.emptyIsNull)) this.store(null);
    else if (flags & HAS_ESCAPES || !this.read(record.bytes, start, end, record.ascii)) this.byRules(record.field(index)!);
  }

  takeBytes(b: Buffer, start: number, end: number, ascii: boolean): void {
    if (start === end) this.store(null);
    else if (!this.read(b, start, end, ascii)) this.byRules(b.toString(ascii ? 'latin1' : 'utf8', start, end));
  }

  retract(): void {
    this.count--;
    if (this.unparsed.at(-1)?.index === this.count) this.unparsed.pop();
  }

  skip(): void {
    this.store(undefined);
  }

  takeUnparsed(): UnparsedField[] {
    const unparsed = this.unparsed;
    this.unparsed = [];
    return unparsed;
  }

  /** A JSON Lines value from its token's bytes (see json-object-bytes.ts). */
  takeJson(b: Buffer, kind: number, start: number, end: number, ascii: boolean): void {
    const inner = kind === STRING ? 1 : 0;
    if (!this.readsJson(kind) || !this.read(b, start + inner, end - inner, ascii)) this.byRules(jsonValue(b, kind, start, end, ascii));
  }

  /** A value as the file holds it (a CSV field's text, a JSON value, undefined for absent), by the rules. */
  byRules(raw: unknown): void {
    const value = this.coerce(raw);
    if (value === INVALID) this.unparsed.push({ index: this.count, raw });
    this.store(value);
  }
}

/** Parsed values of any kind (strings, booleans), in an array allocated at full size. */
export abstract class ObjectValues extends ParsedValues {
  protected values = new Array<unknown>(this.batchRows);

  protected store(value: unknown): void {
    this.values[this.count++] = value;
  }

  flush(): ArrayLike<unknown> {
    const values = this.values;
    values.length = this.count;
    this.values = new Array<unknown>(this.batchRows);
    this.count = 0;
    return values;
  }
}

/**
 * Parsed numbers, in a Float64Array while every value of the batch is one: a JS array holding
 * doubles boxes each one (V8 makes every array from one allocation site general once any held a
 * null), and the collector then copies millions of live boxes. A batch with a null, a bigint or
 * an INVALID is held as an array from that value on.
 */
export abstract class NumberValues extends ParsedValues {
  private numbers: Float64Array | undefined = new Float64Array(this.batchRows);
  private objects: unknown[] | undefined;

  protected storeNumber(value: number): void {
    if (this.numbers) this.numbers[this.count++] = value;
    else this.objects![this.count++] = value;
  }

  protected store(value: unknown): void {
    if (typeof value === 'number') return this.storeNumber(value);
    if (this.numbers) {
      this.objects = Array.from(this.numbers.subarray(0, this.count));
      this.numbers = undefined;
    }
    this.objects![this.count++] = value;
  }

  flush(): ArrayLike<unknown> {
    const count = this.count;
    const numbers = this.numbers;
    let values: ArrayLike<unknown>;
    if (numbers) values = count === numbers.length ? numbers : numbers.slice(0, count);
    else {
      this.objects!.length = count;
      values = this.objects!;
    }
    this.numbers = new Float64Array(this.batchRows);
    this.objects = undefined;
    this.count = 0;
    return values;
  }
}
