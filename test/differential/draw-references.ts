import type { ColumnType } from '../../lib/contract/column-type.js';
import type { LogicalTable } from '../writers/logical-table.js';
import type { SpecColumn, SpecContract } from './contract-spec.js';
import type { Random } from './random-tools.js';
import type { SpecReferenceKeys } from './spec-facts.js';
import { drawValues } from './value-draw.js';

/** Types whose keys are spelled plainly: strings as they are, whole numbers and epoch milliseconds as digits. */
const KEYED = new Set<ColumnType['kind']>(['string', 'int32', 'int64', 'date', 'timestamp', 'timestamp_ntz']);

/**
 * `references` on a column or two, with the referenced keys: part of the values the partition
 * holds (all, most, half, a few, none) and some values of the type it does not; now and then the
 * lake cannot give the keys at all.
 */
export function drawReferences(contract: SpecContract, tables: readonly LogicalTable[], r: Random): { contract: SpecContract; references?: Map<string, SpecReferenceKeys> } {
  if (!r.chance(0.3)) return { contract };
  const candidates = r.shuffle(contract.columns.filter((c) => KEYED.has(c.type.kind))).slice(0, r.between(1, 2));
  if (candidates.length === 0) return { contract };
  const references = new Map<string, SpecReferenceKeys>(candidates.map((column) => [column.name, drawKeys(contract, column, tables, r)]));
  const columns = contract.columns.map((c) => (references.has(c.name) ? { ...c, references: { contract: 'customers', column: 'customer_id' } } : c));
  return { contract: { ...contract, columns }, references };
}

function drawKeys(contract: SpecContract, column: SpecColumn, tables: readonly LogicalTable[], r: Random): SpecReferenceKeys {
  if (r.chance(0.1)) return { unavailable: 'customers has no published partition under s3://lake/published/customers/v1/' };
  const held = new Set<string>();
  for (const table of tables) {
    const stored = table.columns.find((c) => c.name === column.name && c.type === column.type.kind);
    for (const value of stored?.values ?? []) if (value !== null) held.add(keyText(value, column.type.kind));
  }
  const keep = r.pick([1, 1, 0.95, 0.5, 0.1, 0]);
  const kept = r.shuffle([...held]).slice(0, Math.round(held.size * keep));
  const good = drawValues(column.type, r, contract.now).good;
  const others = Array.from({ length: r.between(0, 20) }, () => keyText(good(r), column.type.kind));
  return { keys: [...new Set([...kept, ...others])] };
}

/**
 * A logical value (see LogicalTable) as referenceKey spells it: integers, dates and timestamps are
 * whole numbers (epoch ms); an edge instant (bigint ns) between two milliseconds is epoch ms with
 * its fraction, trailing zeros dropped (`-1.5`, `1796047790696.000001`).
 */
export function keyText(value: unknown, kind: ColumnType['kind']): string {
  const temporal = kind === 'timestamp' || kind === 'timestamp_ntz';
  if (typeof value === 'bigint' && temporal) return value % 1_000_000n === 0n ? String(value / 1_000_000n) : fractionalMillis(value);
  return typeof value === 'number' ? BigInt(value).toString() : String(value);
}

function fractionalMillis(nanos: bigint): string {
  const magnitude = nanos < 0n ? -nanos : nanos;
  const fraction = String(magnitude % 1_000_000n).padStart(6, '0').replace(/0+$/, '');
  return `${nanos < 0n ? '-' : ''}${magnitude / 1_000_000n}.${fraction}`;
}
