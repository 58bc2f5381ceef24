import { isAscii, isUtf8 } from 'node:buffer';
import { DEFAULT_BYTE_DIALECT, type ByteDialect } from './csv-byte-dialect.js';
import { TextCheck } from './line-scanner.js';

/** Field flags: the field was quoted; it holds doubled quotes or escapes to undo. */
export const IS_QUOTED = 1;
export const HAS_ESCAPES = 2;

/**
 * One record as the scanner hands it over; valid only during the sink call. Field `k` is bytes
 * [recordStart + starts[k], recordStart + ends[k]) of `bytes`, quotes and CR of CRLF left out.
 */
export interface CsvRecord {
  readonly line: number;
  readonly fieldCount: number;
  readonly problem: string | undefined;
  /** A line with nothing on it: not a record at all. */
  readonly blank: boolean;
  readonly bytes: Buffer;
  readonly recordStart: number;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly flags: Int32Array;
  /** Every byte of the record is ASCII, so a field's bytes are its UTF-16 units. */
  readonly ascii: boolean;
  readonly dialect: ByteDialect;
  field(index: number): string | null;
}

const ENCODING_HINT = ': if the file is written in another encoding, set produces.csv.encoding (e.g. windows-1252, as Excel writes on Windows, or latin1)';

export type RecordSink = (record: CsvRecord) => void;

export function tooLong(maxRecordBytes: number): string {
  return `record is longer than the ${maxRecordBytes}-byte limit (maxRecordBytes)`;
}

/** The record being scanned: where its fields lie in the window, and whether it can be read. */
export class RecordFields implements CsvRecord {
  line = 1;
  fieldCount = 0;
  problem: string | undefined;
  /** Fields past this many are counted but not located: the record is ragged anyway. */
  fieldCap = Number.POSITIVE_INFINITY;
  recordStart = 0;
  starts = new Int32Array(16);
  ends = new Int32Array(16);
  flags = new Int32Array(16);
  ascii = true;
  /** The record is over the length limit: its fields are counted, not kept. */
  protected skipping = false;
  /** What is known to be ASCII or valid UTF-8 from the record on. */
  protected readonly text = new TextCheck();

  constructor(
    public bytes: Buffer,
    readonly dialect: ByteDialect = DEFAULT_BYTE_DIALECT,
  ) {}

  get blank(): boolean {
    return this.fieldCount === 1 && this.problem === undefined && this.flags[0] === 0 && this.starts[0] === this.ends[0];
  }

  field(index: number): string | null {
    const start = this.starts[index]!;
    const end = this.ends[index]!;
    const flags = this.flags[index]!;
    if (flags === 0 && start === end) return null;
    const base = this.recordStart;
    const value = this.bytes.toString(this.ascii ? 'latin1' : 'utf8', base + start, base + end);
    return flags & HAS_ESCAPES ? this.dialect.unescape(value, (flags & IS_QUOTED) !== 0) : value;
  }

  protected endField(begin: number, end: number, flags: number): void {
    const k = this.fieldCount++;
    if (this.skipping || k >= this.fieldCap) return;
    if (k === this.starts.length) this.grow();
    this.starts[k] = begin - this.recordStart;
    this.ends[k] = end - this.recordStart;
    this.flags[k] = flags;
  }

  private grow(): void {
    const grown = (old: Int32Array) => {
      const bigger = new Int32Array(old.length * 2);
      bigger.set(old);
      return bigger;
    };
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
    this.flags = grown(this.flags);
  }

  /** Checks the record ending at `end` is UTF-8, unless it lies before asciiEnd, proved ASCII. */
  protected validate(end: number): void {
    if (end <= this.text.asciiEnd) {
      this.ascii = true;
      return;
    }
    const bytes = this.bytes.subarray(this.recordStart, end);
    this.ascii = isAscii(bytes);
    if (!this.ascii && !isUtf8(bytes)) this.problem = `invalid UTF-8 in field ${this.badUtf8Field()}${this.dialect.dialect.encoding === 'utf-8' ? ENCODING_HINT : ''}`;
  }

  private badUtf8Field(): number {
    const stored = Math.min(this.fieldCount, this.fieldCap);
    for (let k = 0; k < stored; k++) {
      if (!isUtf8(this.bytes.subarray(this.recordStart + this.starts[k]!, this.recordStart + this.ends[k]!))) return k + 1;
    }
    return 1;
  }
}
