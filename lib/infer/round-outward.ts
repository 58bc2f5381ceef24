/**
 * Rounds an observed bound outward to two significant digits (999.87 → 1000, 0.013 → 0.013,
 * 1234 → 1200 below, 1300 above), so the rule reads as a bound a person would write and the
 * next sample a little past the observed edge still passes. Never rounds inward: the result
 * is checked against the value, so float error cannot make a sample fail its own bound.
 */
export function roundDown(value: number, integer = false): number {
  return roundOutward(value, -1, integer);
}

export function roundUp(value: number, integer = false): number {
  return roundOutward(value, 1, integer);
}

const DIGITS = 2;

function roundOutward(value: number, direction: -1 | 1, integer: boolean): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const step = Math.max(integer ? 1 : 0, 10 ** (magnitude - DIGITS + 1));
  const steps = direction < 0 ? Math.floor(value / step) : Math.ceil(value / step);
  // toPrecision trims float noise such as 0.07000000000000001; the guard keeps it outward.
  const rounded = Number((steps * step).toPrecision(12));
  return direction < 0 ? (rounded <= value ? rounded : value) : rounded >= value ? rounded : value;
}
