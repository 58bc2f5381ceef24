import { DAY_START_MS } from './orders-data.js';
import { applyPlants, duplicateSource, mix32, plantsExpected, type SpreadPlant } from './spread-plants.js';
import { INT32, optional, STRING, TIMESTAMP, type TableChunk, type TableSpec } from './table-spec.js';
import type { CommonViolation } from './violation-set.js';

/**
 * Events keyed by 36-character UUID strings, every string column PLAIN-encoded (no dictionary to
 * prove values or hash keys from): the grain is hashed from 36-byte values on every row, and
 * `sku` carries a `pattern` rule, so every value runs the matcher (contract: uuid-bench.v1.yaml).
 */
const hex8 = (value: number) => value.toString(16).padStart(8, '0');

/** Unique per n below 2^32: the first eight digits are a bijection of n; the rest only look random. */
export function uuidOf(n: number, seed: number): string {
  const a = hex8(Math.imul(n ^ seed, 0x9e3779b1) >>> 0);
  const b = hex8(mix32(n, seed + 1));
  const c = hex8(mix32(n, seed + 2));
  const d = hex8(mix32(n, seed + 3));
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
}

const USERS = 200_000;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function sku(n: number): string {
  const h = mix32(n, 7);
  return `${LETTERS[h % 26]}${LETTERS[(h >>> 5) % 26]}${LETTERS[(h >>> 10) % 26]}-${String(h % 10_000).padStart(4, '0')}`;
}

const PLANTS: readonly SpreadPlant[] = [
  { rule: 'required', column: 'user_id', offset: 1301, value: () => null },
  // Lower case: still matches the shape of a sku, just not the pattern (no fast length rejection).
  { rule: 'pattern', column: 'sku', offset: 3401, value: (row) => sku(row).toLowerCase() },
  { rule: 'min', column: 'quantity', offset: 5501, value: () => 0 },
  { rule: 'grain', column: 'event_id', offset: 7707, value: (row, rows) => uuidOf(duplicateSource(row, rows), 0) },
];

function base(first: number, end: number): TableChunk {
  const chunk: TableChunk = { event_id: [], user_id: [], sku: [], quantity: [], created_at: [] };
  for (let n = first; n < end; n++) {
    chunk.event_id!.push(uuidOf(n, 0));
    chunk.user_id!.push(uuidOf(mix32(n, 11) % USERS, 0x5eed));
    chunk.sku!.push(sku(n));
    chunk.quantity!.push(1 + (mix32(n, 13) % 100));
    chunk.created_at!.push((DAY_START_MS + (n % 86_000) * 1000) * 1000);
  }
  return chunk;
}

export const UUID_EVENTS: TableSpec = {
  version: 'uuid5-v1',
  schema: [
    { name: 'root', num_children: 5 },
    optional('event_id', STRING),
    optional('user_id', STRING),
    optional('sku', STRING),
    optional('quantity', INT32),
    optional('created_at', TIMESTAMP),
  ],
  plainColumns: ['event_id', 'user_id', 'sku'],
  chunk: (first, end, rows) => applyPlants(base(first, end), PLANTS, first, end, rows),
};

export function uuidExpected(rows: number): CommonViolation[] {
  return plantsExpected(PLANTS, rows);
}
