import type { TypedColumn } from '../formats/table-file.js';
import { idPatternOf } from './column-roles.js';
import { TypeCandidates } from './type-candidates.js';
import { ValueRange } from './value-range.js';

/** How a format hands over values (see FileSchema in formats/table-file.ts). */
export type SourceKind = 'typed' | 'text' | 'dynamic';

/** What one partition showed of a column, as the raw values came. */
export interface ColumnPartition {
  rows: number;
  /** null, or an absent JSON key. */
  nulls: number;
  /** CSV `""`: the empty string in a string column and a null in any other. */
  empties: number;
  /** Typed files only: the decoded values' range (numbers, bigint, epoch ms). */
  readonly range: ValueRange;
}

/**
 * Everything a proposal needs to know about one column, gathered value by value. Distinct
 * strings are kept only up to `distinctCap`: past it the column is no enum, and memory stays
 * bounded whatever the partition holds.
 */
export class ColumnStats {
  /** Files that have the column (Parquet and CSV: a column missing from one cannot be declared). */
  files = 0;
  /** Parquet: each distinct stored type, with how the file describes it. */
  readonly stored: { readonly type: TypedColumn['type']; readonly physical: string }[] = [];
  readonly candidates: TypeCandidates | undefined;
  readonly partitions: ColumnPartition[] = [];
  /** Distinct string values, or undefined once there were more than the cap. */
  distinct: Set<string> | undefined = new Set();
  /** Non-null string values seen, the denominator of the enum rule. */
  strings = 0;
  /** The identifier pattern (`UUID`, `ULID`) every string so far has; null once one has none. */
  idPattern: string | null | undefined;
  private current: ColumnPartition | undefined;

  constructor(readonly name: string, private readonly source: SourceKind, private readonly distinctCap: number) {
    this.candidates = source === 'typed' ? undefined : new TypeCandidates(source);
  }

  startPartition(index: number): void {
    this.current = { rows: 0, nulls: 0, empties: 0, range: new ValueRange() };
    this.partitions[index] = this.current;
    this.candidates?.startPartition(index);
  }

  addStored(type: TypedColumn['type'], physical: string): void {
    if (!this.stored.some((s) => s.physical === physical)) this.stored.push({ type, physical });
  }

  observe(value: unknown): void {
    const seen = this.current!;
    seen.rows++;
    this.candidates?.observe(value);
    if (value === null || value === undefined) {
      seen.nulls++;
      return;
    }
    if (typeof value === 'string') {
      if (value === '' && this.source === 'text') seen.empties++;
      this.addString(value);
    } else if (this.source === 'typed' && (typeof value === 'number' || typeof value === 'bigint')) {
      seen.range.add(value);
    }
  }

  private addString(value: string): void {
    this.strings++;
    if (this.idPattern !== null && value !== '') {
      const pattern = idPatternOf(value);
      this.idPattern = pattern !== undefined && (this.idPattern === undefined || this.idPattern === pattern) ? pattern : null;
    }
    if (!this.distinct || this.distinct.has(value)) return;
    if (this.distinct.size >= this.distinctCap) this.distinct = undefined;
    else this.distinct.add(value);
  }
}
