/**
 * A small seeded PRNG (mulberry32): the same seed gives the same faults on every machine, so a
 * failing run is replayed by its seed alone.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, max). */
  int(max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An independent stream, e.g. one per handler, so one handler's draws do not shift another's. */
  fork(label: number): Rng;
}

export function seededRng(seed: number): Rng {
  let state = mix(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (max) => Math.floor(next() * max),
    chance: (probability) => probability > 0 && next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    fork: (label) => seededRng(mix(seed) ^ mix(label + 0x9e3779b9)),
  };
}

/** Spreads nearby seeds (0, 1, 2 ...) over the whole state space. */
function mix(value: number): number {
  let h = Math.imul(value ^ (value >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) | 0;
}
