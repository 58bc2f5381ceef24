import { coerceFor, INVALID, type Coerce } from '../checks/coerce-value.js';
import type { ColumnType } from '../contract/column-type.js';
import { ValueRange } from './value-range.js';

/** How a format hands over values: CSV fields are text, JSON Lines values are JSON values. */
export type UntypedSource = 'text' | 'dynamic';

/** Contract types tried on CSV and JSON values, in the order a proposal prefers them. */
const KINDS = ['boolean', 'int64', 'decimal', 'float64', 'date', 'timestamp', 'timestamp_ntz', 'string'] as const;
export type CandidateKind = (typeof KINDS)[number];

/** What one partition showed of a column read as one candidate type. */
export interface CandidatePartition {
  nulls: number;
  nonNull: number;
  readonly range: ValueRange;
}

export interface Candidate {
  readonly kind: CandidateKind;
  readonly partitions: CandidatePartition[];
}

/**
 * CSV decimals written with a fixed scale (DuckDB writes DECIMAL(12,2) as `12.50`): every value
 * has the same number of digits after the point. Values with an exponent, or no point, are floats.
 */
const FIXED_POINT = /^[+-]?(\d+)\.(\d+)$/;

/**
 * Tries every candidate type on every value of a column with the engine's own parsers
 * (coerceFor), so a type survives only if the gate would read each value as it. int64 rather
 * than int32 for integers: text says nothing of width, and the wider type leaves room.
 */
export class TypeCandidates {
  private live: { readonly kind: CandidateKind; readonly coerce: Coerce; readonly stats: Candidate }[];
  private decimal = { scale: -1, integerDigits: 0, fractionSeen: false };
  private partition = -1;

  constructor(private readonly source: UntypedSource) {
    const kinds = source === 'dynamic' ? KINDS.filter((k) => k !== 'decimal') : KINDS;
    this.live = kinds.map((kind) => ({ kind, coerce: this.coerceOf(kind), stats: { kind, partitions: [] } }));
  }

  startPartition(index: number): void {
    this.partition = index;
    for (const { stats } of this.live) stats.partitions[index] = { nulls: 0, nonNull: 0, range: new ValueRange() };
  }

  observe(raw: unknown): void {
    let kept: typeof this.live | undefined;
    for (const [i, candidate] of this.live.entries()) {
      const value = candidate.coerce(raw);
      if (value === INVALID) {
        kept ??= this.live.slice(0, i);
        continue;
      }
      kept?.push(candidate);
      const seen = candidate.stats.partitions[this.partition]!;
      if (value === null) seen.nulls++;
      else {
        seen.nonNull++;
        if (typeof value === 'number' || typeof value === 'bigint') seen.range.add(value);
      }
    }
    if (kept) this.live = kept;
  }

  /** The surviving candidates, preferred first. */
  survivors(): readonly Candidate[] {
    return this.live.map((c) => c.stats);
  }

  /** The decimal type the fixed-point values fit, with room to grow: precision 18, or more if needed. */
  decimalType(): ColumnType | undefined {
    const { scale, integerDigits, fractionSeen } = this.decimal;
    if (scale < 1 || !fractionSeen || integerDigits + scale > 38) return undefined;
    return { kind: 'decimal', precision: Math.max(18, integerDigits + scale), scale };
  }

  private coerceOf(kind: CandidateKind): Coerce {
    if (kind === 'decimal') return (raw) => this.fixedPoint(raw);
    const parse = coerceFor(this.source, { kind });
    // A JSON string is a string on purpose: digits in quotes are codes, not numbers.
    if (this.source === 'dynamic' && kind === 'int64') return (raw) => (typeof raw === 'string' ? INVALID : parse(raw));
    return parse;
  }

  private fixedPoint(raw: unknown): unknown {
    if (raw === null || raw === undefined || raw === '') return null;
    const match = typeof raw === 'string' ? FIXED_POINT.exec(raw) : null;
    if (!match) return INVALID;
    const [integer, fraction] = [match[1]!.replace(/^0+/, ''), match[2]!];
    if (this.decimal.scale !== -1 && this.decimal.scale !== fraction.length) return INVALID;
    this.decimal.scale = fraction.length;
    this.decimal.integerDigits = Math.max(this.decimal.integerDigits, integer.length);
    if (/[1-9]/.test(fraction)) this.decimal.fractionSeen = true;
    return Number(raw);
  }
}
