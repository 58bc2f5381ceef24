import { DEFAULT_BYTE_DIALECT, type ByteDialect } from './csv-byte-dialect.js';
import { IS_QUOTED, type CsvRecord } from './csv-record.js';
import type { FieldReader } from './csv-field-readers.js';
import type { ColumnBatch, UnparsedField, UnreadableRow } from './table-file.js';

const COMMA = 0x2c;
/** A record of the wrong length is most often a dialect misdeclared: a delimiter, quote or escape the file does not use. */
export const FIELD_COUNT_HINT = ' (check produces.csv.delimiter, quote and escape against how the file is written)';
const LF = 0x0a;
const CR = 0x0d;

/** A requested column: where it is in the header and what reads its fields. */
export interface WantedColumn {
  readonly name: string;
  readonly index: number;
  readonly reader: FieldReader;
}

/** Collects records into batches of the requested columns, each read by its FieldReader. */
export class CsvBatchBuilder {
  readonly ready: ColumnBatch[] = [];
  private count = 0;
  private unreadable: UnreadableRow[] = [];
  private readonly readers: FieldReader[];
  private readonly indexes: Int32Array;
  /** The reader of each field of a record, by its place in the header; undefined where unwanted. */
  private readonly byField: (FieldReader | undefined)[];
  /** Fields whose reader finds their end itself (FieldReader.scanBytes). */
  private readonly scans: boolean[];

  constructor(
    private readonly headerLength: number,
    private readonly wanted: readonly WantedColumn[],
    private readonly batchRows: number,
    /** The row index within the file of the first record added. */
    private rowStart = 0,
    private readonly maxRecordBytes = Number.POSITIVE_INFINITY,
    private readonly dialect: ByteDialect = DEFAULT_BYTE_DIALECT,
  ) {
    this.readers = wanted.map((w) => w.reader);
    this.indexes = Int32Array.from(wanted, (w) => w.index);
    this.byField = Array.from({ length: headerLength }, (_, k) => wanted.find((w) => w.index === k)?.reader);
    // Readers that find a field's end themselves look for a comma.
    this.scans = this.byField.map((reader) => reader?.scanBytes !== undefined && dialect.delimiter === COMMA);
  }

  /** Whether plain records may come whole to addUnquoted: not where null values or escapes need a field's text looked at. */
  get takesPlainRecords(): boolean {
    return this.dialect.plainSplits;
  }

  /**
   * Reads the record at `p` straight from the bytes, fields handed to their readers as they are
   * split, when it is the common kind: unquoted, as many fields as the header, within the length
   * limit, ending in a newline before `limit` (the bytes before it are valid UTF-8, and ASCII if
   * `ascii`). Returns where the next record starts, or -1, having taken nothing, for the scanner
   * to read it field by field.
   */
  addUnquoted(b: Buffer, p: number, limit: number, ascii: boolean): number {
    const first = p;
    const last = this.headerLength - 1;
    const { delimiter, quote } = this.dialect;
    const top = Math.max(delimiter, LF);
    for (let k = 0; ; k++) {
      if (b[p] === quote) return this.retract(k, -1);
      const scanned = this.scans[k] ? this.byField[k]!.scanBytes!(b, p, limit) : -1;
      if (scanned >= 0) {
        if ((b[scanned] === LF) !== (k === last)) return this.retract(k + 1, -1);
        p = scanned + 1;
        if (k === last) break;
        continue;
      }
      const start = p;
      let c = 0;
      while (p < limit) {
        c = b[p]!;
        if (c <= top && (c === delimiter || c === LF)) break;
        p++;
      }
      // Too few fields, too many, or no newline in reach: the scanner says which.
      if (p >= limit || (c === LF) !== (k === last)) return this.retract(k, -1);
      const end = c === LF && p > start && b[p - 1] === CR ? p - 1 : p;
      this.byField[k]?.takeBytes(b, start, end, ascii);
      p++;
      if (k === last) break;
    }
    if (p - 1 - first > this.maxRecordBytes) return this.retract(this.headerLength, -1);
    if (++this.count === this.batchRows) this.flush();
    return p;
  }

  /** Takes back what the first `fields` fields of a record gave their readers. */
  private retract(fields: number, result: number): number {
    for (let k = 0; k < fields; k++) this.byField[k]?.retract();
    return result;
  }

  add(record: CsvRecord): void {
    // A blank line is a record of one empty field: a null row where the header has one column
    // (DuckDB writes a null that way), and nothing where it has more.
    if (record.blank && this.headerLength > 1) return;
    const reason = record.problem ?? (record.fieldCount === this.headerLength ? undefined : this.fieldCountProblem(record.fieldCount));
    const readers = this.readers;
    if (reason === undefined) {
      if (this.dialect.nulls !== undefined) this.markNulls(record as MutableRecord);
      for (let i = 0; i < readers.length; i++) readers[i]!.take(record, this.indexes[i]!);
    } else {
      this.unreadable.push({ row: this.rowStart + this.count, line: record.line, reason });
      for (let i = 0; i < readers.length; i++) readers[i]!.skip();
    }
    if (++this.count === this.batchRows) this.flush();
  }

  private fieldCountProblem(found: number): string {
    const expected = this.dialect.dialect.header ? 'as in the header' : "as the contract's columns";
    return `expected ${this.headerLength} fields ${expected}, found ${found}${FIELD_COUNT_HINT}`;
  }

  /**
   * Rewrites the wanted fields of a record as the readers take null and empty: a null value
   * (as written, quoted or not) becomes an empty unquoted field, and an empty unquoted field
   * that is not one a quoted empty string.
   */
  private markNulls(record: MutableRecord): void {
    const base = record.recordStart;
    for (let i = 0; i < this.indexes.length; i++) {
      const k = this.indexes[i]!;
      const start = record.starts[k]!;
      const end = record.ends[k]!;
      const quoted = (record.flags[k]! & IS_QUOTED) !== 0;
      if (this.dialect.isNull(record.bytes, base + start, base + end, quoted)) {
        record.ends[k] = start;
        record.flags[k] = 0;
      } else if (!quoted && start === end) record.flags[k] = IS_QUOTED;
    }
  }

  flush(): void {
    if (this.count === 0) return;
    const columns = new Map<string, ArrayLike<unknown>>();
    const hashes = new Map<string, Float64Array>();
    const parsed = new Map<string, UnparsedField[]>();
    for (const { name, reader } of this.wanted) {
      const values = reader.flush();
      if (reader.output === 'hashes') hashes.set(name, values as Float64Array);
      else columns.set(name, values);
      if (reader.takeUnparsed) parsed.set(name, reader.takeUnparsed());
    }
    const batch: ColumnBatch = {
      rowStart: this.rowStart,
      rowCount: this.count,
      columns,
      ...(hashes.size > 0 ? { hashes } : {}),
      ...(parsed.size > 0 ? { parsed } : {}),
      ...(this.unreadable.length > 0 ? { unreadableRows: this.unreadable } : {}),
    };
    this.ready.push(batch);
    this.rowStart += this.count;
    this.count = 0;
    this.unreadable = [];
  }

  takeReady(): ColumnBatch[] {
    return this.ready.splice(0);
  }
}

/** The scanner's record: its field arrays may be rewritten during the sink call (CsvBatchBuilder.markNulls). */
type MutableRecord = CsvRecord & { readonly starts: Int32Array; readonly ends: Int32Array; readonly flags: Int32Array };
