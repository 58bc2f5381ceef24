import type { CsvRecord } from './csv-scanner.js';
import type { FieldReader } from './csv-field-readers.js';
import type { ColumnBatch, UnparsedField, UnreadableRow } from './table-file.js';

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

  constructor(
    private readonly headerLength: number,
    private readonly wanted: readonly WantedColumn[],
    private readonly batchRows: number,
    /** The row index within the file of the first record added. */
    private rowStart = 0,
  ) {
    this.readers = wanted.map((w) => w.reader);
    this.indexes = Int32Array.from(wanted, (w) => w.index);
  }

  add(record: CsvRecord): void {
    // A blank line is a record of one empty field: a null row where the header has one column
    // (DuckDB writes a null that way), and nothing where it has more.
    if (record.blank && this.headerLength > 1) return;
    const reason =
      record.problem ??
      (record.fieldCount === this.headerLength ? undefined : `expected ${this.headerLength} fields as in the header, found ${record.fieldCount}`);
    const readers = this.readers;
    if (reason === undefined) {
      for (let i = 0; i < readers.length; i++) readers[i]!.take(record, this.indexes[i]!);
    } else {
      this.unreadable.push({ row: this.rowStart + this.count, line: record.line, reason });
      for (let i = 0; i < readers.length; i++) readers[i]!.skip();
    }
    if (++this.count === this.batchRows) this.flush();
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
