import type { ColumnType } from '../../lib/contract/column-type.js';
import { isTemporalType } from '../../lib/contract/column-type.js';
import { boundFor } from './bound-text.js';
import type { Bound } from './contract-spec.js';
import type { Random } from './random-tools.js';
import { tickOf, tickSpace, type TickSpace } from './tick-space.js';
import type { Plant } from './value-draw.js';

/** The rules an ordered column drew, a source of values that keep them, and values that break them. */
export interface OrderedDraw {
  readonly min?: Bound;
  readonly max?: Bound;
  readonly notInFuture: boolean;
  readonly good: (r: Random) => number;
  readonly plants: Plant[];
}

interface Window {
  readonly from: number;
  readonly to: number;
}

/**
 * Bounds around a window where the data lives (the bound itself is a good value), values inside
 * it, and plants just past, far past and at the type's extremes; NaN, ±Infinity and -0 for floats.
 */
export function drawOrdered(type: ColumnType, now: number, r: Random): OrderedDraw {
  const space = tickSpace(type)!;
  const temporal = isTemporalType(type);
  const notInFuture = temporal && r.chance(0.35);
  const nowTick = temporal ? Math.floor(tickOf(type, now)) : Infinity;
  const window = drawWindow(space, r, temporal ? nowTick : undefined);
  // Float bounds stay the round numbers an author writes; float32 data then lands beside them.
  const end = (tick: number) => (space.continuous ? tick : space.value(tick));
  const min = r.chance(0.45) ? boundFor(type, end(window.from), r) : undefined;
  const max = r.chance(0.45) ? boundFor(type, end(window.to), r) : undefined;
  const keep: Window = { from: window.from, to: notInFuture ? Math.min(window.to, nowTick) : window.to };
  const plants: Plant[] = [];
  if (min) plants.push({ rule: 'min', value: (rr) => below(space, window.from, rr) });
  if (max) plants.push({ rule: 'max', value: (rr) => above(space, window.to, rr) });
  if (notInFuture) plants.push({ rule: 'not_in_future', value: (rr) => above(space, nowTick, rr) });
  if (space.continuous) plants.push({ rule: 'special', value: (rr) => rr.pick([NaN, Infinity, -Infinity, -0]) });
  return { min, max, notInFuture, good: (rr) => inside(space, keep, rr), plants };
}

/** Where the data lives: temporal data ends near now (hours to years ago), numbers anywhere. */
function drawWindow(space: TickSpace, r: Random, nowTick: number | undefined): Window {
  const span = space.hi - space.lo;
  const width = Math.max(space.continuous ? 1e-3 : 3, span * 10 ** -r.between(1, 9));
  if (nowTick !== undefined) {
    const to = Math.min(space.hi, nowTick + (r.chance(0.3) ? Math.floor(width / 4) : -r.pick([0, 1, Math.floor(width / 10)])));
    return { from: Math.max(space.lo, to - Math.floor(width)), to };
  }
  const from = space.lo + r.next() * (span - width);
  return snap(space, { from, to: from + width });
}

function snap(space: TickSpace, window: Window): Window {
  if (!space.continuous) return { from: Math.ceil(window.from), to: Math.floor(window.to) };
  return { from: Math.round(window.from * 100) / 100, to: Math.round(window.to * 100) / 100 };
}

function inside(space: TickSpace, window: Window, r: Random): number {
  if (r.chance(0.04)) return space.value(window.from);
  if (r.chance(0.04)) return space.value(window.to);
  const tick = window.from + r.next() * (window.to - window.from);
  return space.value(space.continuous ? tick : Math.round(tick));
}

/** Just below the bound, anywhere below it, or the type's lowest value. */
function below(space: TickSpace, bound: number, r: Random): number {
  const step = space.continuous ? Math.max(Math.abs(bound) * 1e-6, 1e-3) : 1;
  const tick = r.weighted([[3, bound - step], [2, space.lo], [3, space.lo + r.next() * (bound - space.lo)]]);
  return space.value(space.continuous ? Math.max(space.lo, tick) : Math.max(space.lo, Math.floor(tick)));
}

function above(space: TickSpace, bound: number, r: Random): number {
  const step = space.continuous ? Math.max(Math.abs(bound) * 1e-6, 1e-3) : 1;
  const tick = r.weighted([[3, bound + step], [2, space.hi], [3, bound + r.next() * (space.hi - bound)]]);
  return space.value(space.continuous ? Math.min(space.hi, tick) : Math.min(space.hi, Math.ceil(tick)));
}
