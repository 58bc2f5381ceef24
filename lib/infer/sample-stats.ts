import type { PartitionValues } from '../contract/partition-template.js';
import type { TypedColumn } from '../formats/table-file.js';
import { ColumnStats, type SourceKind } from './column-stats.js';
import { isIdName } from './column-roles.js';
import type { DeclaredKey } from './declared-keys.js';
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
  /** Single-column keys and declared keys; composites are searched in later passes. */
  readonly keys = new KeyTracker();
  /** Keys the files' writers declared (Parquet metadata), tracked as candidates from the start. */
  readonly declared: DeclaredKey[] = [];
  files = 0;

  constructor(readonly source: SourceKind, private readonly distinctCap: number) {}

  /** Before any partition: the declared keys, first in line for the key search's memory. */
  declare(keys: readonly DeclaredKey[]): void {
    this.declared.push(...keys);
    for (const key of keys) this.keys.add(key.columns, 0);
  }

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
    // A boolean has two values. Times and measures are tracked, last in line, to say they were
    // unique by chance, or to serve when nothing else is (see key-candidates.ts).
    if (kind !== 'boolean') this.keys.add([name], keyPriority(name, kind));
    return stats;
  }

  /** Columns with one value: no part of a key. Strings by their values, typed numbers by their range. */
  constantColumns(): Set<string> {
    const constant = [...this.columns.values()].filter((c) => {
      if (c.strings > 0) return c.distinct !== undefined && c.distinct.size === 1;
      const ranges = c.partitions.map((p) => p.range);
      return this.source === 'typed' && ranges.length > 0 && ranges.every((r) => r.min !== undefined && r.min === r.max);
    });
    return new Set(constant.map((c) => c.name));
  }

  private current(): PartitionSample {
    const partition = this.partitions.at(-1);
    if (!partition) throw new Error('startPartition must come before the files of a partition');
    return partition;
  }
}

/** The tracker's order when memory runs short: id-like names first, times and measures last. */
function keyPriority(name: string, kind: string | undefined): number {
  if (isIdName(name)) return 1;
  return ['float32', 'float64', 'decimal', 'timestamp', 'timestamp_ntz'].includes(kind ?? '') ? 3 : 2;
}
