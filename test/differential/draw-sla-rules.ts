import type { LogicalTable } from '../writers/logical-table.js';
import type { SpecContract, SpecSla } from './contract-spec.js';
import { HOUR, newestValue } from './draw-sla.js';
import type { Random } from './random-tools.js';
import type { HistoryPartition } from './spec-facts.js';

/**
 * The SLA rules that came with issue 17, drawn once the data is known: `warn_lag_hours` aimed at
 * the newest value's lag (beside max_lag_hours or alone), and `volume_vs_history` with a history of
 * 0 to 10 published partitions and ratios aimed at the partition's rows over their median.
 */
export function drawSlaRules(contract: SpecContract, tables: readonly LogicalTable[], rows: number, r: Random): { sla: SpecSla; history?: HistoryPartition[] } {
  const freshness = contract.sla.freshness && r.chance(0.35) ? warnLag(contract, tables, r) : contract.sla.freshness;
  const sla: SpecSla = { ...contract.sla, ...(freshness ? { freshness } : {}) };
  if (!r.chance(0.35)) return { sla };
  const history = drawHistory(rows, r);
  const lookback = r.pick([3, 4, 5, 7, 10, 366]);
  return { sla: { ...sla, volumeVsHistory: { lookback, ...drawRatios(rows, history.slice(0, lookback), r) } }, history };
}

function warnLag(contract: SpecContract, tables: readonly LogicalTable[], r: Random): SpecSla['freshness'] {
  const { column, maxLagHours } = contract.sla.freshness!;
  const spec = contract.columns.find((c) => c.name === column)!;
  const newest = newestValue(tables, column, spec.type.kind);
  const lag = newest === undefined ? r.between(0, 100) : (contract.now - newest) / HOUR;
  const aimed = r.pick([lag, Math.floor(lag), Math.ceil(lag), lag - 0.001, lag + 0.001, r.between(0, 5000)]);
  const warnLagHours = Math.max(0, Math.round(aimed * 1e6) / 1e6);
  if (maxLagHours === undefined || r.chance(0.3)) return { column, warnLagHours };
  // warn_lag_hours must be below max_lag_hours; max_lag_hours then also lands near the lag now and then.
  const max = maxLagHours > warnLagHours ? maxLagHours : warnLagHours + r.pick([0.001, 1, 100]);
  return { column, maxLagHours: max, warnLagHours };
}

/** Row counts around this partition's: equal, half, double, none, anything. Newest first, one a day. */
function drawHistory(rows: number, r: Random): HistoryPartition[] {
  const count = r.between(0, 10);
  const steady = r.chance(0.5);
  return Array.from({ length: count }, (_, i) => {
    const n = steady ? rows + r.between(-2, 2) : r.weighted([[3, rows], [2, Math.round(rows / 2)], [2, rows * 2], [1, 0], [3, r.between(0, 2 * rows + 10)]]);
    return { partition: `dt=${new Date(Date.UTC(2026, 10, 29 - i)).toISOString().slice(0, 10)}`, rows: Math.max(0, n) };
  });
}

/** Ratios on both sides of rows / median, sometimes exactly at it (which passes). */
function drawRatios(rows: number, last: readonly HistoryPartition[], r: Random): { minRatio?: number; maxRatio?: number } {
  const median = medianOf(last.map((p) => p.rows));
  const ratio = median === undefined || median === 0 ? r.pick([0.5, 1, 2]) : rows / median;
  const near = () => r.pick([ratio, ratio, ratio * 0.9, ratio * 1.1, Math.round(ratio * 100) / 100, r.pick([0.5, 0.8, 1, 1.25, 2])]);
  const which = r.pick(['min', 'max', 'both'] as const);
  let minRatio = which !== 'max' ? Math.max(0, near()) : undefined;
  let maxRatio = which !== 'min' ? Math.max(1e-6, near()) : undefined;
  if (minRatio !== undefined && maxRatio !== undefined && minRatio > maxRatio) [minRatio, maxRatio] = [maxRatio, minRatio];
  return { ...(minRatio === undefined ? {} : { minRatio }), ...(maxRatio === undefined ? {} : { maxRatio }) };
}

/** Only to aim the ratios; the oracle takes DuckDB's median(). */
function medianOf(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
