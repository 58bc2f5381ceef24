import type { TableChunk } from './table-spec.js';
import type { CommonViolation } from './violation-set.js';

/**
 * Violations spread over the whole partition: a rule planted at `offset` fails at every row n
 * with n % STRIDE === offset, so about 0.01 % of rows per rule and 25 in every 250,000-row group.
 * No row group is clean, so footer statistics prove nothing and every page must be read. Being
 * arithmetic rather than random, the expected counts are exact for any row count.
 */
export const STRIDE = 10_000;

/** A rule failing at one offset of every STRIDE rows: the column it is on and the value written there. */
export interface SpreadPlant {
  readonly rule: string;
  readonly column: string;
  readonly offset: number;
  readonly value: (row: number, rows: number) => unknown;
}

/** The rows of [first, end) a rule planted at `offset` hits, in order. */
export function* plantedRows(first: number, end: number, offset: number): Generator<number> {
  for (let n = first + ((offset - (first % STRIDE) + STRIDE) % STRIDE); n < end; n += STRIDE) yield n;
}

/** How many rows of [0, rows) a rule planted at `offset` hits. */
export function plantedCount(rows: number, offset: number): number {
  return rows > offset ? Math.floor((rows - 1 - offset) / STRIDE) + 1 : 0;
}

/** Writes the plants into a chunk of rows [first, end) of a `rows`-row partition (last plant wins). */
export function applyPlants(chunk: TableChunk, plants: readonly SpreadPlant[], first: number, end: number, rows: number): TableChunk {
  for (const plant of plants) {
    const column = chunk[plant.column]!;
    for (const n of plantedRows(first, end, plant.offset)) column[n - first] = plant.value(n, rows);
  }
  return chunk;
}

/**
 * What every engine must find given the plants: one count per plant (a grain plant counts
 * repeated keys, and names no column, as the report does). Plants must not share an offset.
 */
export function plantsExpected(plants: readonly SpreadPlant[], rows: number): CommonViolation[] {
  return plants.map((p) => ({ rule: p.rule, column: p.rule === 'grain' ? null : p.column, count: plantedCount(rows, p.offset) }));
}

/**
 * The row whose key a planted grain duplicate copies: half the partition further on (so, in a
 * partition split into files, another file), wrapping around. The shift is an odd multiple of
 * STRIDE / 2, so the copied row is never itself planted at the same offset, and it is a bijection:
 * every planted row makes exactly one key occur twice.
 */
export function duplicateSource(row: number, rows: number): number {
  if (rows % STRIDE !== 0) throw new Error(`spread partitions have a multiple of ${STRIDE} rows, not ${rows}`);
  const shift = STRIDE * Math.floor(rows / (2 * STRIDE)) + STRIDE / 2;
  return (row + shift) % rows;
}

/** A 32-bit mix of a row number and a seed (murmur3's finaliser): deterministic, looks random. */
export function mix32(row: number, seed: number): number {
  let h = Math.imul(row ^ seed, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
