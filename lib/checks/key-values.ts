import type { ColumnType } from '../contract/column-type.js';
import type { SampleValue } from '../report/report.js';
import { INVALID } from './coerce-value.js';
import { hashParts, hashValue } from './key-hash.js';
import { toSampleValue } from './sample-value.js';

/** A row's key hash, or NaN when a part is null or did not parse (reported under other rules). */
export function keyHashAt(columns: readonly ArrayLike<unknown>[], row: number): number {
  if (columns.length === 1) {
    const value = columns[0]![row];
    return isKeyPart(value) ? hashValue(value) : NaN;
  }
  const parts = columns.map((column) => column[row]);
  return parts.every(isKeyPart) ? hashParts(parts) : NaN;
}

export function keyDisplay(names: readonly string[], types: readonly (ColumnType | undefined)[], columns: readonly ArrayLike<unknown>[], row: number): SampleValue {
  if (names.length === 1) return toSampleValue(columns[0]![row], types[0]);
  return Object.fromEntries(names.map((name, i) => [name, toSampleValue(columns[i]![row], types[i])]));
}

function isKeyPart(value: unknown): boolean {
  return value !== null && value !== undefined && value !== INVALID;
}
