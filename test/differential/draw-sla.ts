import { isTemporalType } from '../../lib/contract/column-type.js';
import type { SpecContract, SpecSla } from './contract-spec.js';
import type { Random } from './random-tools.js';
import type { LogicalTable } from '../writers/logical-table.js';

export const HOUR = 3_600_000;

/**
 * Volume and freshness bands drawn around what the data holds, so they land on both sides and
 * on the boundary (a band equal to the row count, a lag equal to the allowed hours, both pass).
 */
export function drawSla(contract: SpecContract, tables: readonly LogicalTable[], r: Random, rows = tables.reduce((sum, t) => sum + t.rows, 0)): SpecSla {
  const near = () => Math.max(0, rows + r.pick([-1, 0, 0, 1, -Math.ceil(rows / 3), Math.ceil(rows / 3)]));
  const minRows = r.chance(0.4) ? near() : undefined;
  const maxRaw = r.chance(0.4) ? near() : undefined;
  const maxRows = maxRaw === undefined || minRows === undefined ? maxRaw : Math.max(minRows, maxRaw);
  return { ...(minRows === undefined ? {} : { minRows }), ...(maxRows === undefined ? {} : { maxRows }), ...drawFreshness(contract, tables, r) };
}

function drawFreshness(contract: SpecContract, tables: readonly LogicalTable[], r: Random): Pick<SpecSla, 'freshness'> {
  const temporal = contract.columns.filter((c) => isTemporalType(c.type));
  if (temporal.length === 0 || !r.chance(0.5)) return {};
  // A column whose newest value is in the past can be stale; one with a value in the future cannot.
  const past = temporal.filter((c) => (newestValue(tables, c.name, c.type.kind) ?? Infinity) <= contract.now);
  const column = r.pick(past.length > 0 && r.chance(0.8) ? past : temporal);
  const newest = newestValue(tables, column.name, column.type.kind);
  const lag = newest === undefined ? r.between(0, 100) : (contract.now - newest) / HOUR;
  const hours = r.pick([lag, Math.floor(lag), Math.ceil(lag), lag - 0.001, r.between(0, 5000)]);
  return { freshness: { column: column.name, maxLagHours: Math.max(0, Math.round(hours * 1e6) / 1e6) } };
}

/** The newest value among files that store the column with its contract type (a guess: good enough to aim). */
export function newestValue(tables: readonly LogicalTable[], name: string, kind: string): number | undefined {
  let newest: number | undefined;
  for (const table of tables) {
    const column = table.columns.find((c) => c.name === name && c.type === kind);
    for (const raw of column?.values ?? []) {
      // Edge instants are bigint nanoseconds (edge-draw.ts).
      const value = typeof raw === 'bigint' ? Number(raw / 1_000_000n) : raw;
      if (typeof value === 'number' && (newest === undefined || value > newest)) newest = value;
    }
  }
  return newest;
}
