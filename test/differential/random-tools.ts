import { Prng } from '../fuzz/prng.js';

/** The fuzz harness's seeded generator, with the few draws the differential generator needs. */
export class Random extends Prng {
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An integer in [low, high], both included. */
  between(low: number, high: number): number {
    return low + this.int(high - low + 1);
  }

  /** `count` distinct indexes in [0, below), spread uniformly (a partial Fisher-Yates). */
  positions(count: number, below: number): number[] {
    const take = Math.min(count, below);
    const picked = new Map<number, number>();
    const out: number[] = [];
    for (let i = 0; i < take; i++) {
      const j = i + this.int(below - i);
      out.push(picked.get(j) ?? j);
      picked.set(j, picked.get(i) ?? i);
    }
    return out;
  }

  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[] {
    return this.positions(items.length, items.length).map((i) => items[i]!);
  }

  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(choices: readonly (readonly [number, T])[]): T {
    const total = choices.reduce((sum, [w]) => sum + w, 0);
    let at = this.next() * total;
    for (const [weight, value] of choices) {
      if ((at -= weight) < 0) return value;
    }
    return choices[choices.length - 1]![1];
  }
}
