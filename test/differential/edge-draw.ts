import { isTemporalType, type ColumnType } from '../../lib/contract/column-type.js';
import type { Bound } from './contract-spec.js';
import { exactSpace, type ExactSpace, type TimeUnit } from './exact-space.js';
import { floorDiv, NS_PER_DAY, NS_PER_MS } from './exact-time.js';
import type { Random } from './random-tools.js';
import type { Plant, ValueDraw } from './value-draw.js';

/**
 * Values and bounds at the edges of an ordered type, as exact ticks: bounds at or one unit beside
 * an edge (the type's ends, 2^31, 2^53, 2^63, the epoch, each timestamp unit's range), good values
 * on and inside them, plants one unit past, far past and at the type's own end.
 */
export function drawEdgeOrdered(type: ColumnType, now: number, r: Random): ValueDraw {
  const space = exactSpace(type, timeUnit(type, r))!;
  const temporal = isTemporalType(type);
  const notInFuture = temporal && r.chance(0.3);
  const window = dataWindow(type, space, r);
  let [min, max] = [r.chance(0.5) ? boundTick(space, window, r) : undefined, r.chance(0.5) ? boundTick(space, window, r) : undefined];
  if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
  const nowTick = temporal ? nowTickOf(type, now, space.step) : undefined;
  const from = min ?? window[0];
  const to = [max ?? window[1], nowTick !== undefined && notInFuture ? nowTick : space.hi].reduce((a, b) => (a < b ? a : b));
  const plants: Plant[] = [];
  if (min !== undefined && min > space.lo) plants.push({ rule: 'min', value: (rr) => space.value(past(space, min, space.lo, rr)) });
  if (max !== undefined && max < space.hi) plants.push({ rule: 'max', value: (rr) => space.value(past(space, max, space.hi, rr)) });
  if (nowTick !== undefined && notInFuture && nowTick < space.hi) plants.push({ rule: 'not_in_future', value: (rr) => space.value(past(space, nowTick, space.hi, rr)) });
  const good = (rr: Random) => space.value(inside(space, from, to < from ? from : to, rr));
  const roomy = type.kind !== 'decimal' || type.precision >= 3;
  return { rules: { ...boundsOf(space, min, max, r), notInFuture }, good, plants, roomy };
}

/** Wall-clock columns may hold nanoseconds (DuckDB TIMESTAMP_NS); UTC instants reach DuckDB in µs. */
function timeUnit(type: ColumnType, r: Random): TimeUnit {
  if (type.kind === 'timestamp_ntz') return r.pick(['ms', 'us', 'ns', 'ns']);
  return r.pick(['ms', 'us', 'us']);
}

/**
 * Where the data lives: the whole type, or for int64 now and then only [0, 2^32) or [2^31, 2^32),
 * so a writer may store it as UINT32 (see duckdb-writers.ts) with values past INT32's end.
 */
function dataWindow(type: ColumnType, space: ExactSpace, r: Random): [bigint, bigint] {
  if (type.kind === 'int64' && r.chance(0.3)) return [r.pick([0n, 2n ** 31n]), 2n ** 32n - 1n];
  return [space.lo, space.hi];
}

function boundTick(space: ExactSpace, window: readonly [bigint, bigint], r: Random): bigint {
  const edges = space.edges.filter((e) => e >= window[0] && e <= window[1]);
  const tick = r.weighted<() => bigint>([
    [5, () => r.pick(edges) + r.pick([-space.step, 0n, 0n, space.step])],
    [2, () => r.pick(edges) + BigInt(r.between(-1000, 1000)) * space.step],
    [3, () => uniform(window[0], window[1], r)],
  ])();
  const clamped = [window[0], space.boundLo].reduce((a, b) => (a > b ? a : b));
  const top = [window[1], space.boundHi].reduce((a, b) => (a < b ? a : b));
  return snap(tick < clamped ? clamped : tick > top ? top : tick, space.step);
}

function boundsOf(space: ExactSpace, min: bigint | undefined, max: bigint | undefined, r: Random): { min?: Bound; max?: Bound } {
  const bound = (t: bigint): Bound => ({ value: Number(t), yaml: space.boundText(t, r), sql: space.boundSql(t) });
  return { ...(min !== undefined ? { min: bound(min) } : {}), ...(max !== undefined ? { max: bound(max) } : {}) };
}

/** On the window's ends, a step inside them, an edge inside, or anywhere inside. */
function inside(space: ExactSpace, from: bigint, to: bigint, r: Random): bigint {
  const edges = space.edges.filter((e) => e >= from && e <= to);
  return r.weighted<() => bigint>([
    [1, () => from],
    [1, () => to],
    [1, () => (from + space.step <= to ? from + space.step : from)],
    [1, () => (to - space.step >= from ? to - space.step : to)],
    [2, () => (edges.length > 0 ? r.pick(edges) : from)],
    [6, () => snap(uniform(from, to, r), space.step, from)],
  ])();
}

/** One unit past the bound, the type's end, or anywhere between (`end` is beyond `bound`). */
function past(space: ExactSpace, bound: bigint, end: bigint, r: Random): bigint {
  const dir = end > bound ? 1n : -1n;
  return r.weighted<() => bigint>([
    [4, () => bound + dir * space.step],
    [2, () => end],
    [3, () => snap(dir > 0n ? uniform(bound + space.step, end, r) : uniform(end, bound - space.step, r), space.step, dir > 0n ? bound + space.step : end)],
  ])();
}

function nowTickOf(type: ColumnType, now: number, step: bigint): bigint {
  const nanos = BigInt(now) * NS_PER_MS;
  return type.kind === 'date' ? floorDiv(nanos, NS_PER_DAY) : floorDiv(nanos, step) * step;
}

function snap(tick: bigint, step: bigint, floor?: bigint): bigint {
  const snapped = floorDiv(tick, step) * step;
  return floor !== undefined && snapped < floor ? floor : snapped;
}

/** A uniform bigint in [lo, hi]. */
export function uniform(lo: bigint, hi: bigint, r: Random): bigint {
  if (hi <= lo) return lo;
  const span = hi - lo + 1n;
  let x = 0n;
  for (let i = 0; i < 5; i++) x = (x << 32n) | BigInt(r.int(2 ** 32));
  return lo + (x % span);
}
