import { CsvBatchBuilder, type WantedColumn } from './csv-batch-builder.js';
import type { RecordTarget } from './csv-file.js';
import type { CsvRecord } from './csv-scanner.js';
import type { ColumnBatch } from './table-file.js';

/**
 * Takes only the given rows of a file, one batch each, numbered as every row is: a CSV has no
 * index to seek by, but re-reading a few rows (the duplicate keys a hash found) need decode
 * nothing else, and can stop at the last of them.
 */
export class CsvRowPicker implements RecordTarget {
  private readonly ready: ColumnBatch[] = [];
  private readonly wanted: Set<number>;
  private row = 0;

  constructor(
    private readonly headerLength: number,
    rows: readonly number[],
    private readonly columns: () => WantedColumn[],
  ) {
    this.wanted = new Set(rows);
  }

  get done(): boolean {
    return this.wanted.size === 0;
  }

  add(record: CsvRecord): void {
    // Numbered as CsvBatchBuilder numbers rows: a blank line is a row only in a one-column file.
    if (record.blank && this.headerLength > 1) return;
    const row = this.row++;
    if (!this.wanted.delete(row)) return;
    const builder = new CsvBatchBuilder(this.headerLength, this.columns(), 1, row);
    builder.add(record);
    this.ready.push(...builder.takeReady());
  }

  flush(): void {}

  takeReady(): ColumnBatch[] {
    return this.ready.splice(0);
  }
}
