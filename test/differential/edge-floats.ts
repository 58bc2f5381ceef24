import type { Bound } from './contract-spec.js';
import type { Random } from './random-tools.js';
import type { Plant, ValueDraw } from './value-draw.js';

/**
 * Floats at their edges: ±0, the smallest subnormal, the largest subnormal and smallest normal,
 * the largest finite value, 2^24 / 2^53 where integers stop being exact; bounds there or one ulp
 * beside, plants one ulp past, ±Infinity and NaN. A bound is the double its text reads as.
 */
const EDGES_64 = [0, -0, 5e-324, -5e-324, 2.225073858507201e-308, 2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 0.1, 1, -1, 1e-300];
const EDGES_32 = [0, -0, 1.401298464324817e-45, -1.401298464324817e-45, 1.1754942106924411e-38, 1.1754943508222875e-38, 3.4028234663852886e38, -3.4028234663852886e38, 2 ** 24, 2 ** 24 + 2, Math.fround(0.1), 1, -1];

export function drawEdgeFloats(single: boolean, r: Random): ValueDraw {
  const edges = single ? EDGES_32 : EDGES_64;
  const step = (x: number, dir: 1 | -1) => (single ? nextFloat32(x, dir) : nextFloat64(x, dir));
  const drawn = () => r.weighted<() => number>([[5, () => r.pick(edges)], [3, () => step(r.pick(edges), r.pick([1, -1] as const))], [2, () => Math.round((r.next() - 0.5) * 2e6) / 100]])();
  // One ulp past the largest finite value is Infinity, which YAML cannot give as a number bound.
  const tick = () => [drawn()].map((t) => (Number.isFinite(t) ? t : 0))[0]!;
  let [min, max] = [r.chance(0.5) ? tick() : undefined, r.chance(0.5) ? tick() : undefined];
  if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
  const [from, to] = [min ?? -Infinity, max ?? Infinity];
  const within = edges.filter((e) => e >= from && e <= to);
  const fit = (x: number) => (single ? Math.fround(x) : x);
  const good = (rr: Random) => fit(rr.weighted<() => number>([
    [2, () => (within.length > 0 ? rr.pick(within) : Number.isFinite(from) ? from : to)],
    [1, () => (Number.isFinite(from) ? from : rr.pick(edges))],
    [1, () => (Number.isFinite(to) ? to : rr.pick(edges))],
    [4, () => (Number.isFinite(from) && Number.isFinite(to) ? from + rr.next() * (to - from) : rr.pick(edges) * rr.next())],
  ])());
  const plants: Plant[] = [{ rule: 'special', value: (rr) => rr.pick([NaN, Infinity, -Infinity, -0]) }];
  if (min !== undefined) plants.push({ rule: 'min', value: (rr) => rr.pick([step(fit(min), -1), step(fit(min), -1), -Infinity, single ? -3.4028234663852886e38 : -Number.MAX_VALUE]) });
  if (max !== undefined) plants.push({ rule: 'max', value: (rr) => rr.pick([step(fit(max), 1), step(fit(max), 1), Infinity, single ? 3.4028234663852886e38 : Number.MAX_VALUE]) });
  const bound = (x: number): Bound => ({ value: x, yaml: Object.is(x, -0) ? '-0.0' : String(x), sql: `CAST('${Object.is(x, -0) ? '-0.0' : String(x)}' AS DOUBLE)` });
  return { rules: { ...(min !== undefined ? { min: bound(min) } : {}), ...(max !== undefined ? { max: bound(max) } : {}), notInFuture: false }, good, plants, roomy: true };
}

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The next double up (dir 1) or down (-1); NaN stays NaN, ±Infinity stay. */
export function nextFloat64(x: number, dir: 1 | -1): number {
  if (Number.isNaN(x) || x === dir * Infinity) return x;
  if (x === 0) return dir * 5e-324;
  f64[0] = x;
  u64[0] = u64[0]! + ((x > 0) === (dir > 0) ? 1n : -1n);
  return f64[0];
}

export function nextFloat32(x: number, dir: 1 | -1): number {
  const v = Math.fround(x);
  if (Number.isNaN(v) || v === dir * Infinity) return v;
  if (v === 0) return dir * 1.401298464324817e-45;
  // A double between two floats: its rounding may already be the neighbour.
  if (v !== x && (v > x) === (dir > 0)) return v;
  f32[0] = v;
  u32[0] = u32[0]! + ((v > 0) === (dir > 0) ? 1 : -1);
  return f32[0]!;
}
