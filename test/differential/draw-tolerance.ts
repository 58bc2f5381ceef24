import type { SpecTolerance } from './contract-spec.js';
import type { Random } from './random-tools.js';

/** Whether a seed's contract has `on_violation`: drawn before the oracle counts the invalid rows it aims at. */
export function wantsTolerance(r: Random): boolean {
  return r.chance(0.4);
}

/**
 * A row tolerance aimed at the invalid rows the oracle found: a number of rows at, just below or
 * above them, or a fraction (at most 4 decimals) whose allowance lands just on either side; and
 * the usual round fractions, some of which (0.29, 0.57) are no exact binary fraction.
 */
export function drawTolerance(invalid: number, rows: number, r: Random): SpecTolerance {
  if (r.chance(0.5)) return { rows: Math.max(0, r.pick([invalid, invalid, invalid - 1, invalid + 1, 0, r.between(0, 2 * invalid + 5)])) };
  const exact = rows === 0 ? 0 : (invalid * 10_000) / rows;
  const units = [Math.ceil(exact), Math.floor(exact), Math.ceil(exact) + 1, 0, 100, 200, 500, 1000, 2900, 5700].filter((u) => u >= 0 && u < 10_000);
  return { fraction: fractionText(r.pick(units)) };
}

/** Ten-thousandths as YAML writes them: 200 is `0.02`. */
export function fractionText(units: number): string {
  if (units === 0) return '0';
  return `0.${String(units).padStart(4, '0').replace(/0+$/, '')}`;
}
