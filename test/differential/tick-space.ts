import type { ColumnType } from '../../lib/contract/column-type.js';

export const DAY = 86_400_000;
const YEAR_1960 = Date.UTC(1960, 0, 1);
const YEAR_2100 = Date.UTC(2100, 0, 1);

/**
 * An ordered type as integer ticks (days, milliseconds, unscaled decimal units) or, for floats,
 * plain numbers, so bounds and plants are drawn the same way for every ordered type.
 */
export interface TickSpace {
  readonly lo: number;
  readonly hi: number;
  readonly continuous: boolean;
  /** The logical value (see LogicalTable) of a tick. */
  value(tick: number): number;
}

export function tickSpace(type: ColumnType): TickSpace | undefined {
  switch (type.kind) {
    case 'int32': return integers(-(2 ** 31), 2 ** 31 - 1);
    case 'int64': return integers(-(2 ** 53 - 1), 2 ** 53 - 1);
    case 'float32': return { lo: -1e7, hi: 1e7, continuous: true, value: (t) => Math.fround(t) };
    case 'float64': return { lo: -1e12, hi: 1e12, continuous: true, value: (t) => t };
    case 'decimal': return decimals(type.precision, type.scale);
    case 'date': return { lo: YEAR_1960 / DAY, hi: YEAR_2100 / DAY, continuous: false, value: (t) => t * DAY };
    case 'timestamp':
    case 'timestamp_ntz': return { lo: YEAR_1960, hi: YEAR_2100, continuous: false, value: (t) => t };
    default: return undefined;
  }
}

function integers(lo: number, hi: number): TickSpace {
  return { lo, hi, continuous: false, value: (t) => t };
}

/** Unscaled values stay below 2^50 so `toFixed(scale)` gives back the exact digits. */
function decimals(precision: number, scale: number): TickSpace {
  const max = Math.min(10 ** precision - 1, 2 ** 50);
  return { lo: -max, hi: max, continuous: false, value: (t) => t / 10 ** scale };
}

/** The tick of a logical value, the inverse of `value` for integer spaces. */
export function tickOf(type: ColumnType, value: number): number {
  if (type.kind === 'date') return Math.round(value / DAY);
  if (type.kind === 'decimal') return Math.round(value * 10 ** type.scale);
  return value;
}
