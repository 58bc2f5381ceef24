import type { PartitionValues } from '../contract/partition-template.js';
import type { TypedColumn } from '../formats/table-file.js';
import { ColumnStats, type SourceKind } from './column-stats.js';
import { KeyTracker } from './key-tracker.js';

/** One sample partition: where it came from and what it held. */
export interface PartitionSample {
  /** The directory (or file) that stood for it, for messages and comments. */
  readonly label: string;
  /** Its date (and hour) read from its folder names, when they fit the partition template. */
  readonly values?: PartitionValues;
  rows: number;
  files: number;
}

/** A file's columns as its reader declares them; Parquet adds each stored type. */
export interface SampleColumn {
  readonly name: string;
  readonly stored?: { readonly type: TypedColumn['type']; readonly physical: string };
}

/**
 * What the sample partitions showed, fed batch by batch by an adapter that reads the files. No
 * I/O here: the adapter owns files, the inference reads only these numbers.
 */
export class SampleStats {
  readonly columns = new Map<string, ColumnStats>();
  readonly partitions: PartitionSample[] = [];
  /** Single-column keys, and pairs when a second pass asks for them. */
  readonly keys = new KeyTracker();
  files = 0;

  constructor(readonly source: SourceKind, private readonly distinctCap: number) {}

  startPartition(label: string, values: PartitionValues | undefined): void {
    this.partitions.push({ label, ...(values ? { values } : {}), rows: 0, files: 0 });
    for (const column of this.columns.values()) column.startPartition(this.partitions.length - 1);
  }

  /** A new file of the current partition with its columns; new columns join in first-seen order. */
  addFile(columns: readonly SampleColumn[]): void {
    this.files++;
    this.current().files++;
    for (const { name, stored } of columns) {
      const stats = this.columns.get(name) ?? this.newColumn(name, stored?.type.kind);
      stats.files++;
      if (stored) stats.addStored(stored.type, stored.physical);
    }
  }

  addBatch(batch: ReadonlyMap<string, ArrayLike<unknown>>, rowCount: number): void {
    this.current().rows += rowCount;
    for (const [name, values] of batch) {
      const stats = this.columns.get(name);
      if (!stats) continue;
      for (let i = 0; i < rowCount; i++) stats.observe(values[i]);
    }
    this.keys.observe(batch, rowCount);
  }

  endPartition(): void {
    this.keys.endPartition();
  }

  private newColumn(name: string, kind: string | undefined): ColumnStats {
    const stats = new ColumnStats(name, this.source, this.distinctCap);
    for (let i = 0; i < this.partitions.length; i++) stats.startPartition(i);
    this.columns.set(name, stats);
    // Floats, decimals and booleans are unique only by chance (see infer-grain.ts): not tracked.
    if (kind !== 'float32' && kind !== 'float64' && kind !== 'decimal' && kind !== 'boolean') this.keys.add([name]);
    return stats;
  }

  private current(): PartitionSample {
    const partition = this.partitions.at(-1);
    if (!partition) throw new Error('startPartition must come before the files of a partition');
    return partition;
  }
}
